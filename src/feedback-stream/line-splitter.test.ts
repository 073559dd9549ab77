import { describe, expect, it } from "vitest";
import { LineSplitter, MAX_LINE_LENGTH } from "./line-splitter.js";

function split(chunks: readonly string[]): { lines: string[]; cut: number } {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, cut: splitter.cutLines };
}

describe("LineSplitter", () => {
  it("splits on \\n and \\r\\n, also across chunk boundaries", () => {
    expect(split(["a\r", "\nb\nc", "d\r\ne"]).lines).toEqual(["a", "b", "cd", "e"]);
  });

  it("reads a line redrawn with \\r as its last non-empty state", () => {
    expect(split(["10%\r50%\r", "100%\r\ndone\n"]).lines).toEqual(["100%", "done"]);
    expect(split(["kept\r\r\n"]).lines).toEqual(["kept"]);
  });

  it("strips escape sequences and control characters, NUL included", () => {
    expect(split(["\x1b[31mFAIL\x1b[39m a\0b\x07\n"]).lines).toEqual(["FAIL ab"]);
  });

  it("cuts a line longer than MAX_LINE_LENGTH before handing it on, however it arrives", () => {
    const long = "x".repeat(10_000);
    const whole = split([`${long}\nnext\n`]);
    const pieces = split([...long.match(/.{1,700}/gs)!, "\nnext\n"]);
    for (const { lines, cut } of [whole, pieces]) {
      expect(lines.map((line) => line.length)).toEqual([MAX_LINE_LENGTH, 4]);
      expect(cut).toBe(1);
    }
  });

  it("keeps the last redraw of a progress bar longer than the raw cap", () => {
    const frames = Array.from({ length: 5000 }, (_, index) => `progress ${index}`).join("\r");
    expect(split([frames, "\nafter\n"]).lines).toEqual(["progress 4999", "after"]);
    const chunked = frames.match(/.{1,333}/gs)!;
    expect(split([...chunked, "\n"]).lines).toEqual(["progress 4999"]);
  });

  it("never leaves half a surrogate pair where a line is cut", () => {
    const [line] = split([`${"a".repeat(MAX_LINE_LENGTH - 1)}😀tail\n`]).lines;
    expect(line).toHaveLength(MAX_LINE_LENGTH - 1);
    expect(line!.endsWith("a")).toBe(true);
  });

  it("reports a last line without a newline, and nothing for empty input", () => {
    expect(split(["a\nb"]).lines).toEqual(["a", "b"]);
    expect(split([]).lines).toEqual([]);
  });
});
