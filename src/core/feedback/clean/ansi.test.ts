import { describe, expect, it } from "vitest";
import { stripAnsi } from "./ansi.js";

describe("stripAnsi", () => {
  it("removes SGR colours as Vitest prints them", () => {
    expect(
      stripAnsi("\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m src/a.test.ts\x1b[2m > \x1b[22mworks"),
    ).toBe(" FAIL  src/a.test.ts > works");
  });

  it("removes cursor movement, erase and private-mode CSI sequences", () => {
    expect(stripAnsi("\x1b[2K\x1b[1A\x1b[?25lready\x1b[?25h")).toBe("ready");
  });

  it("removes the 8-bit CSI", () => {
    expect(stripAnsi("\x9b31mred\x9b0m")).toBe("red");
  });

  it("removes OSC sequences ended by BEL or ST, keeping a hyperlink's text", () => {
    expect(stripAnsi("\x1b]0;title\x07x")).toBe("x");
    expect(stripAnsi("\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
  });

  it("removes short escape sequences (charset, keypad)", () => {
    expect(stripAnsi("\x1b(Bplain\x1b=\x1b>")).toBe("plain");
  });

  it("keeps the last state of a line redrawn with carriage returns", () => {
    expect(stripAnsi("progress 10%\rprogress 55%\rprogress 100%\nnext")).toBe(
      "progress 100%\nnext",
    );
    expect(stripAnsi("done\r")).toBe("done");
    // A redraw of blanks moves the cursor and erases nothing.
    expect(stripAnsi("FAIL a\r\t\nnext")).toBe("FAIL a\nnext");
  });

  it("reads CRLF as a newline", () => {
    expect(stripAnsi("a\r\nb\r\n")).toBe("a\nb\n");
  });

  it("removes NULs and other C0 controls but keeps tabs and newlines", () => {
    expect(stripAnsi("a\x00b\x07c\x08d\te\nf\x7f")).toBe("abcd\te\nf");
  });

  it("drops a stray or unterminated escape without losing the text after it", () => {
    expect(stripAnsi("a\x1b")).toBe("a");
    expect(stripAnsi("\x1b[12;34")).toBe("12;34");
    expect(stripAnsi("\x1b]unterminated osc")).toBe("unterminated osc");
  });

  it("survives an escape storm", () => {
    const storm = "\x1b[".repeat(500_000) + "\nend";
    expect(stripAnsi(storm)).toBe("\nend");
    expect(stripAnsi("\x1b]".repeat(200_000))).toBe("");
  });
});
