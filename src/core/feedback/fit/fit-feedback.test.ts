import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength, ELLIPSIS } from "../clean/code-points.js";
import { fitFeedback } from "./fit-feedback.js";

const total = (fitted: { summary: string; actionableItems: readonly string[] }): number =>
  codePointLength(fitted.summary) +
  fitted.actionableItems.reduce((sum, item) => sum + codePointLength(item), 0);

const hasLoneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("fitFeedback", () => {
  it("returns everything unchanged when it fits", () => {
    expect(fitFeedback("Test failed: x", ["a", "b"], 100)).toEqual({
      summary: "Test failed: x",
      actionableItems: ["a", "b"],
    });
  });

  it("drops empty items", () => {
    expect(fitFeedback("s", ["", "a", ""], 100).actionableItems).toEqual(["a"]);
  });

  it("keeps the first item complete and shortens the later ones evenly", () => {
    const first = "src/a.test.ts:3 adds: expected 3, received 2";
    const later = ["x".repeat(100), "y".repeat(100), "short item here!"];
    const fitted = fitFeedback("Test failed", [first, ...later], 120);
    expect(fitted.summary).toBe("Test failed");
    expect(fitted.actionableItems[0]).toBe(first);
    expect(total(fitted)).toBeLessThanOrEqual(120);
    expect(fitted.actionableItems).toHaveLength(4);
    expect(fitted.actionableItems[3]).toBe("short item here!");
    expect(fitted.actionableItems[1]?.endsWith(ELLIPSIS)).toBe(true);
  });

  it("drops later items from the end when even a short form does not fit", () => {
    const fitted = fitFeedback(
      "S",
      ["first item", "a".repeat(50), "b".repeat(50), "c".repeat(50)],
      50,
    );
    expect(fitted.actionableItems[0]).toBe("first item");
    expect(fitted.actionableItems.length).toBeLessThan(4);
    expect(fitted.actionableItems.at(-1)?.startsWith("c")).toBe(false);
    expect(total(fitted)).toBeLessThanOrEqual(50);
  });

  it("splits the cap between summary and a huge first item", () => {
    const fitted = fitFeedback("Test failed: expected 1, received 2", ["z".repeat(1000)], 40);
    expect(fitted.summary).toBe("Test failed: expected 1, r…");
    expect(fitted.actionableItems).toEqual([`${"z".repeat(12)}${ELLIPSIS}`]);
    expect(total(fitted)).toBe(40);
  });

  it("keeps a short summary whole when the first item is huge", () => {
    const fitted = fitFeedback("Test failed", ["z".repeat(1000)], 40);
    expect(fitted.summary).toBe("Test failed");
    expect(total(fitted)).toBe(40);
  });

  it("fits a cap of 1", () => {
    const fitted = fitFeedback("Test failed: x", ["item"], 1);
    expect(fitted).toEqual({ summary: ELLIPSIS, actionableItems: [] });
  });

  it("never leaves an item that is only the marker", () => {
    const fitted = fitFeedback("abcdefgh", ["12345678"], 9);
    expect(fitted.actionableItems.every((item) => item !== ELLIPSIS)).toBe(true);
    expect(total(fitted)).toBeLessThanOrEqual(9);
  });

  it("cuts on code points, not UTF-16 units", () => {
    const fitted = fitFeedback("😀😀😀😀", ["😀😀😀😀😀😀"], 6);
    expect(total(fitted)).toBeLessThanOrEqual(6);
    expect(hasLoneSurrogate(fitted.summary + fitted.actionableItems.join(""))).toBe(false);
  });

  it("treats a fractional or absurd cap as at least 1", () => {
    expect(total(fitFeedback("abc", ["def"], 2.9))).toBeLessThanOrEqual(2);
    expect(total(fitFeedback("abc", ["def"], 0))).toBeLessThanOrEqual(1);
  });
});

describe("fitFeedback with item forms", () => {
  const forms = (name: string): string[] => [name, `${name}: values`, `${name}: values (note)`];

  it("keeps the whole forms when they fit", () => {
    expect(fitFeedback("S", [forms("a"), forms("b")], 100).actionableItems).toEqual([
      "a: values (note)",
      "b: values (note)",
    ]);
  });

  it("names every item before giving any more detail, earlier items first", () => {
    const fitted = fitFeedback("S", [forms("a"), forms("b"), forms("c")], 1 + 18 + 11 + 1 + 1);
    expect(fitted.actionableItems).toEqual(["a: values (note)", "b: values", "c"]);
  });

  it("shortens the briefest forms evenly when even they do not all fit", () => {
    const fitted = fitFeedback("S", [forms("a"), forms("b".repeat(40)), forms("c".repeat(40))], 50);
    expect(fitted.actionableItems[0]).toBe("a: values (note)");
    expect(fitted.actionableItems.slice(1).every((item) => item.endsWith(ELLIPSIS))).toBe(true);
    expect(total(fitted)).toBeLessThanOrEqual(50);
  });
});

describe("fitFeedback (properties)", () => {
  const text = fc.string({ unit: "binary", maxLength: 200 });
  const items = fc.array(text, { maxLength: 12 });
  const cap = fc.integer({ min: 1, max: 600 });

  it("never exceeds the cap, for any unicode and any cap >= 1", () => {
    fc.assert(
      fc.property(text, items, cap, (summary, list, maxLength) => {
        const fitted = fitFeedback(summary, list, maxLength);
        expect(total(fitted)).toBeLessThanOrEqual(maxLength);
        expect(hasLoneSurrogate(fitted.summary)).toBe(false);
        for (const item of fitted.actionableItems) {
          expect(item).not.toBe("");
          expect(item).not.toBe(ELLIPSIS);
          expect(hasLoneSurrogate(item)).toBe(false);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("keeps items in order, each whole or a marked prefix of its original", () => {
    fc.assert(
      fc.property(text, items, cap, (summary, list, maxLength) => {
        const originals = list.filter((item) => item !== "");
        const fitted = fitFeedback(summary, list, maxLength);
        fitted.actionableItems.forEach((item, index) => {
          const original = originals[index] ?? "";
          if (item !== original) {
            expect(item.endsWith(ELLIPSIS)).toBe(true);
            expect(original.startsWith(item.slice(0, -1))).toBe(true);
          }
        });
      }),
      { numRuns: 3_000 },
    );
  });

  it("keeps the summary and the first item whole whenever both fit", () => {
    fc.assert(
      fc.property(text, items, cap, (summary, list, maxLength) => {
        const first = list.find((item) => item !== "");
        fc.pre(first !== undefined);
        fc.pre(codePointLength(summary) + codePointLength(first ?? "") <= maxLength);
        const fitted = fitFeedback(summary, list, maxLength);
        expect(fitted.summary).toBe(summary);
        expect(fitted.actionableItems[0]).toBe(first);
      }),
      { numRuns: 3_000 },
    );
  });

  it("with forms, never exceeds the cap and keeps each item one of its forms or a marked prefix of one", () => {
    const formsOf = fc.array(fc.string({ unit: "binary", minLength: 1, maxLength: 80 }), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(text, fc.array(formsOf, { maxLength: 10 }), cap, (summary, list, maxLength) => {
        const fitted = fitFeedback(summary, list, maxLength);
        expect(total(fitted)).toBeLessThanOrEqual(maxLength);
        fitted.actionableItems.forEach((item, index) => {
          const options = list[index] ?? [];
          expect(hasLoneSurrogate(item)).toBe(false);
          expect(item).not.toBe(ELLIPSIS);
          const isForm = options.includes(item);
          const isPrefix =
            item.endsWith(ELLIPSIS) && options.some((form) => form.startsWith(item.slice(0, -1)));
          expect(isForm || isPrefix).toBe(true);
        });
      }),
      { numRuns: 3_000 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(text, items, cap, (summary, list, maxLength) => {
        expect(fitFeedback(summary, list, maxLength)).toEqual(
          fitFeedback(summary, list, maxLength),
        );
      }),
      { numRuns: 500 },
    );
  });
});
