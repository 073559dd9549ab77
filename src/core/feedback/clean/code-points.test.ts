import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codePointLength,
  ELLIPSIS,
  takeCodePoints,
  toWellFormed,
  truncateCodePoints,
} from "./code-points.js";

/** Any code point, or a lone surrogate half, so that malformed input is covered too. */
const anyUnit = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
);
const anyText = fc.string({ unit: anyUnit, maxLength: 60 });

const hasLoneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("codePointLength", () => {
  it("counts code points, as Python's len does", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀")).toBe(1);
    expect(codePointLength("a😀b")).toBe(3);
    expect(codePointLength("👩‍💻")).toBe(3); // woman, zero-width joiner, laptop
  });

  it("counts a lone surrogate as one", () => {
    expect(codePointLength("\uD800")).toBe(1);
    expect(codePointLength("\uDC00\uD800")).toBe(2);
  });

  it("agrees with the string iterator on any input", () => {
    fc.assert(
      fc.property(anyText, (text) => codePointLength(text) === [...text].length),
      { numRuns: 2_000 },
    );
  });
});

describe("takeCodePoints", () => {
  it("never splits a surrogate pair", () => {
    expect(takeCodePoints("😀😀", 1)).toBe("😀");
    expect(takeCodePoints("a😀", 1)).toBe("a");
    expect(takeCodePoints("abc", 0)).toBe("");
    expect(takeCodePoints("abc", 10)).toBe("abc");
  });
});

describe("truncateCodePoints", () => {
  it("keeps text that fits", () => {
    expect(truncateCodePoints("hello", 5)).toBe("hello");
  });

  it("marks a cut with an ellipsis that counts toward the limit", () => {
    expect(truncateCodePoints("hello world", 6)).toBe("hello…");
    expect(truncateCodePoints("hello", 1)).toBe(ELLIPSIS);
    expect(truncateCodePoints("hello", 0)).toBe("");
  });

  it("drops blanks before the marker", () => {
    expect(truncateCodePoints("ab  cd", 4)).toBe("ab…");
  });

  it("cuts emoji whole", () => {
    expect(truncateCodePoints("😀😀😀", 2)).toBe("😀…");
  });

  it("never exceeds the limit, stays a prefix, and adds no lone surrogate", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 80 }),
        fc.integer({ min: 0, max: 100 }),
        (text, limit) => {
          const cut = truncateCodePoints(text, limit);
          expect(codePointLength(cut)).toBeLessThanOrEqual(limit);
          expect(hasLoneSurrogate(cut)).toBe(false);
          if (cut !== text && cut !== "") {
            expect(cut.endsWith(ELLIPSIS)).toBe(true);
            expect(text.startsWith(cut.slice(0, -1))).toBe(true);
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe("toWellFormed", () => {
  it("replaces lone surrogates and keeps pairs", () => {
    expect(toWellFormed("a\uD800b")).toBe("a\uFFFDb");
    expect(toWellFormed("\uDC00")).toBe("\uFFFD");
    expect(toWellFormed("😀")).toBe("😀");
  });

  it("always yields well-formed text of the same code point length", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const fixed = toWellFormed(text);
        expect(hasLoneSurrogate(fixed)).toBe(false);
        expect(codePointLength(fixed)).toBe(codePointLength(text));
      }),
      { numRuns: 2_000 },
    );
  });
});
