import { describe, expect, it } from "vitest";
import { valuesFromMessage } from "./assertion-values.js";

describe("valuesFromMessage", () => {
  it.each([
    ["expected '123' to be 123 // Object.is equality", "123", "'123'"],
    ["AssertionError: expected 2 to equal 3", "3", "2"],
    ["expected { a: 1 } to deeply equal { a: 2 }", "{ a: 2 }", "{ a: 1 }"],
    ["expected undefined to be null", "null", "undefined"],
    ["AssertionError: expected 'a--b' to match object 'a-b'", "'a-b'", "'a--b'"],
    ["AssertionError: assert '123' == 123", "123", "'123'"],
    ["assert (12 + 1) == 14", "14", "(12 + 1)"],
    ["Add(1, 1) = 2; want 3", "3", "2"],
    ["got -1, want 1", "1", "-1"],
    ['got: "a" want: "b"', '"b"', '"a"'],
    ["expected 3, got 2", "3", "2"],
    ['SHA1: got "a-3" expected "a-5"', '"a-5"', '"a-3"'],
    // go-humanize's own words, from fixtures/real-world/go-test/go-humanize-bytes-base.
    ["On bytes(9999), expected '10 kB', but got '9.8 kB'", "'10 kB'", "'9.8 kB'"],
    ["On 12, expected '12th', but got '12nd'", "'12th'", "'12nd'"],
    // strsim's assert_delta! (fixtures/real-world/cargo/strsim-normalized-min-winkler-prefix).
    [
      "assertion failed: actual: `0.868`, expected: `0.8458333333333333`: actual not within < 0.001 of expected",
      "`0.8458333333333333`",
      "`0.868`",
    ],
    ["expected: 5, actual: 6", "5", "6"],
    // neverthrow's toBeInstanceOf under Vitest (held-out-28).
    [
      "AssertionError: expected Ok{ value: Err{ error: 'error' } } to be an instance of Err",
      "Err",
      "Ok{ value: Err{ error: 'error' } }",
    ],
    // huandu/xstrings' helper, its lines joined (held-out-24).
    ['case fails. [case:中]; should => "2"; actual => "1"', '"2"', '"1"'],
    // chai's property check (held-out-33, object-path): the property's value, what it held.
    [
      "expected { Object (a, b) } to have nested property 'b.d.0' of 'o', but got 'a'",
      "'o'",
      "'a'",
    ],
    ["expected { Object (a, b) } to have nested property 'b.c' of 'o', but got []", "'o'", "[]"],
    // robfig/cron's checks (held-out-31): what was checked, then the pair.
    ["5-7/2 => expected 160, got 32", "160", "32"],
    ["have 1, want 2", "2", "1"],
    ['Increment version, expecting "1.3.0", got "1.3.3"', '"1.3.0"', '"1.3.3"'],
    [
      "Fail evaluating @weekly on Sun Jul 8 00:00 2012: (expected) 2012-07-08 00:00:00 +0000 UTC != 2012-07-14 00:00:00 +0000 UTC (actual)",
      "2012-07-08 00:00:00 +0000 UTC",
      "2012-07-14 00:00:00 +0000 UTC",
    ],
    ["(actual) 1 != 2 (expected)", "2", "1"],
    // gobwas/glob's abbreviated labels, Go's `%v` of a slice (fixtures/real-world/go-test/glob-…).
    ["#0 unexpected segments: exp: [1 2 3], act: [2 3]", "[1 2 3]", "[2 3]"],
    // go-runewidth's notes after the wanted value (fixtures/real-world/go-test/runewidth-ambiguous-truncate-fit).
    ["RuneWidth('☆') = 1, want 2 (EastAsianWidth=true)", "2", "1"],
    ['StringWidth("スター☆") = 7, want 8 (EA)', "8", "7"],
    ["Split() = [a b], want [a b c] (len 3)", "[a b c] (len 3)", "[a b]"],
    // A value that ends the message keeps its last commas and semicolons (gorilla/mux's query keys).
    ["findFirstQueryKey(a=%2C%3B) = %2C%3B, want *,;", "*,;", "%2C%3B"],
    // Capitalised `Got`, doublestar's (fixtures/real-world/go-test/doublestar-…).
    ["#37. Match(`a?b`, `a/b`) != path.Match(...). Got true want false", "false", "true"],
    // jsonparser's `obtained`, Vitest's count of a mock's calls.
    ["isFound mismatch: expected true, obtained false", "true", "false"],
    ['expected "vi.fn()" to be called 3 times, but got 2 times', "3", "2"],
    // doublestar's own words; a count's noun is no part of the value.
    [
      '#55. Glob(`[a-b-d]`, opts: nil) = []string{"-", "a"} - should have 3 results, got 2',
      "3",
      "2",
    ],
    ["expected 3 results, got 2", "3", "2"],
    ["should be 'abc', but got 'abd'", "'abc'", "'abd'"],
  ])("reads %s", (message, expected, received) => {
    expect(valuesFromMessage(message)).toEqual({ expected, received });
  });

  it.each([
    "expected undefined to be defined",

    "assert x",
    "AssertionError: assert (12 ...",
    "TypeError: x is not a function",
    "",
  ])("finds no values in %s", (message) => {
    expect(valuesFromMessage(message)).toBeNull();
  });
});
