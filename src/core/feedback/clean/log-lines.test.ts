import { describe, expect, it } from "vitest";
import { logLines } from "./log-lines.js";

describe("logLines", () => {
  it("strips ANSI, splits lines and drops trailing blanks", () => {
    expect(logLines("\x1b[31mFAIL\x1b[0m a.test.ts   \r\nnext\t\n")).toEqual([
      "FAIL a.test.ts",
      "next",
      "",
    ]);
  });

  it("cuts a huge line to 4000 code units without splitting a surrogate pair", () => {
    const [cut] = logLines("a".repeat(3999) + "😀" + "b".repeat(100));
    expect(cut).toBe("a".repeat(3999));
    const [plain] = logLines("c".repeat(10_000));
    expect(plain).toHaveLength(4000);
  });

  it("replaces lone surrogates", () => {
    expect(logLines("x\uD800y")).toEqual(["x\uFFFDy"]);
  });
});
