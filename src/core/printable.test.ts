import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasUnprintable, printable } from "./printable.js";

describe("printable", () => {
  it("shows escape sequences, C1 controls, separators and bidi controls as visible escapes", () => {
    expect(printable("a\u001b]0;owned\u0007b")).toBe("a\\u001b]0;owned\\u0007b");
    expect(printable("\u009b31mred\u009d")).toBe("\\u009b31mred\\u009d");
    expect(printable("over\rwrite\u007f")).toBe("over\\u000dwrite\\u007f");
    expect(printable("a\u2028b\u2029c\u202ed\u2066e")).toBe("a\\u2028b\\u2029c\\u202ed\\u2066e");
  });

  it("keeps line feeds, tabs and every other character", () => {
    const text = "line 1\n\tline 2 — é 中 😀 \u00a0 ✕";
    expect(printable(text)).toBe(text);
    expect(hasUnprintable(text)).toBe(false);
  });

  it("leaves nothing a terminal acts on, and a second pass changes nothing", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const shown = printable(text);
        expect(hasUnprintable(shown)).toBe(false);
        expect(printable(shown)).toBe(shown);
      }),
      { numRuns: 2_000 },
    );
  });

  it("keeps JSON valid and equal to what was encoded", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary" }), (value, text) => {
        const json = JSON.stringify({ value, text });
        expect(JSON.parse(printable(json))).toEqual(JSON.parse(json));
      }),
      { numRuns: 1_000 },
    );
  });
});
