import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { kindOfCheck } from "./kind-of-check.js";
import { elideValues } from "./elide-values.js";

describe("kindOfCheck", () => {
  it("drops the value labels that close a kind: the item beside it shows the values", () => {
    expect(kindOfCheck("AssertionFailedError: expected: <1> but was: <2>", ["<1>", "<2>"])).toBe(
      "AssertionFailedError",
    );
    expect(kindOfCheck('keeps quotes ==> expected: <"a"> but was: <=a>', ['<"a">', "<=a>"])).toBe(
      "keeps quotes",
    );
    // xstrings' helper lines, joined with `; ` (held-out-24): the row's input is its data.
    expect(kindOfCheck('case fails. [case:中]; should => "2"; actual => "1"', ['"2"', '"1"'])).toBe(
      "case fails.",
    );
  });

  it("keeps words that say more than which side is which", () => {
    expect(kindOfCheck("expected 3 to deeply equal 4", ["4", "3"])).toBe(
      "expected … to deeply equal …",
    );
    expect(kindOfCheck("assert 1 == 2", ["2", "1"])).toBe("assert … == …");
  });

  it("reads node:assert's one-line pair as the same check as its multi-line one", () => {
    expect(
      kindOfCheck("Expected values to be strictly equal: '  a b' !== 'a b'", ["'a b'", "'  a b'"]),
    ).toBe("Expected values to be strictly equal");
    expect(kindOfCheck("Expected values to be strictly equal:", ["'a'", "' a'"])).toBe(
      "Expected values to be strictly equal",
    );
  });

  it("drops the colon that announced the values it elides (unittest's `Lists differ:`)", () => {
    expect(
      kindOfCheck("Lists differ: ['A', 'B', 'B'] != ['A', 'B', 'P']", [
        "['A', 'B', 'P']",
        "['A', 'B', 'B']",
      ]),
    ).toBe("Lists differ");
  });

  it("leaves out labelled sides inside the words: the words after them say what was checked", () => {
    const strsim =
      "assertion failed: actual: `0.868`, expected: `0.8458333333333333`: actual not within < 0.001 of expected";
    expect(kindOfCheck(strsim, ["`0.8458333333333333`", "`0.868`"])).toBe(
      "assertion failed: actual not within < 0.001 of expected",
    );
    expect(kindOfCheck("failed: actual: 1, expected: 2", ["2", "1"])).toBe("failed");
  });

  it("keeps words that are nothing but labels and values as they are", () => {
    expect(kindOfCheck("expected: 1 but was: 2", ["1", "2"])).toBe("expected: … but was: …");
  });

  it("names a matcher hint with placeholders by its matcher, without its comment", () => {
    expect(kindOfCheck("expect(received).toBe(expected) // Object.is equality", [])).toBe("toBe");
    expect(kindOfCheck("expect(received).not.toEqual(expected)", [])).toBe("not.toEqual");
    expect(kindOfCheck("expect(received).toBeTruthy()", [])).toBe("toBeTruthy");
  });

  it("names an expectation's source line by its matcher: the subject is the test's own", () => {
    expect(kindOfCheck("expect(subject.ordinalize(n)).to eq(expected)", [])).toBe(
      "to eq(expected)",
    );
    expect(kindOfCheck('expect(f(g(1))).not_to include("a")', [])).toBe('not_to include("a")');
    expect(kindOfCheck("expect(fn(input)).toEqual(expected)", [])).toBe("toEqual(expected)");
    expect(kindOfCheck("expect(unclosed.to eq(1)", [])).toBe("expect(unclosed.to eq(1)");
  });

  it("is never longer than the words with their values elided", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.array(fc.string({ maxLength: 8 })), (m, v) => {
        expect(kindOfCheck(m, v).length).toBeLessThanOrEqual(elideValues(m, v).length);
      }),
    );
  });
});
