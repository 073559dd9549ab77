import { describe, expect, it } from "vitest";
import { LineSplitter, MAX_LINE_LENGTH, type LineSink } from "./line-splitter.js";

/** A sink that collects the lines it is handed, as `LogReducer` reads them. */
function collect(lines: string[], documents?: string[]): LineSink {
  return {
    pushLines: (text, start, end) => {
      let lineStart = start;
      for (const line of text.slice(start, end).split("\n")) {
        if (line.length > MAX_LINE_LENGTH) return lineStart;
        lines.push(line.trimEnd());
        lineStart += line.length + 1;
      }
      return end + 1;
    },
    ...(documents === undefined ? {} : { pushDocument: (document) => documents.push(document) }),
  };
}

function split(chunks: readonly string[]): { lines: string[]; cut: number } {
  const lines: string[] = [];
  const splitter = new LineSplitter(collect(lines));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, cut: splitter.cutLines };
}

/** `split` with JSON lines up to `maxDocumentLength` kept whole. */
function splitWithDocuments(chunks: readonly string[], maxDocumentLength: number) {
  const lines: string[] = [];
  const documents: string[] = [];
  const splitter = new LineSplitter(collect(lines, documents), maxDocumentLength);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, documents, cut: splitter.cutLines };
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

  it("hands lines that needed cleaning on in order, among plain ones, however many", () => {
    const coloured = Array.from({ length: 1000 }, (_, index) => `\x1b[32m✓\x1b[39m case ${index}`);
    const { lines } = split([`${coloured.join("\n")}\n`, "plain\n", "\x1b[1mlast\x1b[0m"]);
    expect(lines).toEqual([
      ...Array.from({ length: 1000 }, (_, index) => `✓ case ${index}`),
      "plain",
      "last",
    ]);
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

  it("keeps a JSON line whole when it becomes one only as its end arrives, and no more", () => {
    const report = `{"numFailedTests":1,"note":"${"q".repeat(18_000)}"}`;
    const chunks = [`noise\n${report.slice(0, 10_000)}`, `${report.slice(10_000)}\nFAIL after\n`];
    expect(splitWithDocuments(chunks, 1 << 20)).toEqual({
      lines: ["noise", "FAIL after"],
      documents: [report],
      cut: 0,
    });
  });

  it("keeps a JSON line whole once it outgrows the line cut, not only the raw cap", () => {
    // A small run's `jest --json 2>&1` report: a few thousand characters, one line.
    const report = `{"numFailedTests":1,"note":"${"q".repeat(MAX_LINE_LENGTH + 100)}"}`;
    for (const chunks of [
      [`noise\n${report}\nFAIL after\n`],
      [`noise\n${report.slice(0, 50)}`, `${report.slice(50)}\n`],
    ]) {
      expect(splitWithDocuments(chunks, 1 << 20).documents).toEqual([report]);
    }
  });

  it("reads on as lines after a JSON line that outgrows the cap in its last chunk", () => {
    const report = `{"note":"${"q".repeat(30_000)}"}`;
    const chunks = [`noise\n${report.slice(0, 17_000)}`, `${report.slice(17_000)}\nFAIL after\n`];
    expect(splitWithDocuments(chunks, 20_000)).toEqual({
      lines: ["noise", report.slice(0, MAX_LINE_LENGTH), "FAIL after"],
      documents: [],
      cut: 1,
    });
  });
});
