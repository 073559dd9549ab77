import { describe, expect, it } from "vitest";
import { quotedEnd, topLevelParts } from "./quoted-text.js";

describe("quotedEnd", () => {
  it("finds the closing quote past escapes, or -1 when none comes", () => {
    expect(quotedEnd(`"a\\"b" rest`, 0)).toBe(6);
    expect(quotedEnd(`x 'it''s'`, 2)).toBe(6);
    expect(quotedEnd(`"Could not resolve \\"second\\".`, 0)).toBe(-1);
  });
});

describe("topLevelParts", () => {
  it("splits at separators outside quotes and brackets only", () => {
    expect(topLevelParts("2, cache.currsize", ",")).toEqual(["2", " cache.currsize"]);
    expect(topLevelParts("[1, 2], 'a, b', f(x, y)", ",")).toEqual([
      "[1, 2]",
      " 'a, b'",
      " f(x, y)",
    ]);
    expect(topLevelParts("0.2, Object({ first: 'a' })", ", ")).toEqual([
      "0.2",
      "Object({ first: 'a' })",
    ]);
  });

  it("lets a string that never closes run to the end", () => {
    expect(topLevelParts("'a, b", ",")).toEqual(["'a, b"]);
  });
});
