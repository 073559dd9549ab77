import { oneLine } from "../../one-line.js";
import { isBarePair, shownPair, withoutErrorName } from "./feedback-items.js";
import { kindOfCheck } from "./kind-of-check.js";
import type { Failure } from "../feedback.js";
import { isTestPath } from "../extractor/stack-frames.js";

/** A quoted literal in an error's words: the input that differs from test to test. */
const QUOTED = /(['"`])[^'"`\n]*\1/g;

/** An error thrown by name (`TypeError: …`, `java.lang.IllegalStateException: …`), not a check's words. */
const THROWN = /^[\w.$]*(?:Error|Exception)(?: \[\w+\])?: /;

/** Failures with one root cause, in the order the output reported them; the first speaks for all. */
export type FailureGroup = readonly [Failure, ...Failure[]];

/**
 * Failures grouped by root cause: the same error words and the same expected and received
 * values (and, for findings, the same rule) are one cause, however many tests it broke — one
 * item names every test it hit instead of repeating the error. An error thrown at one line of
 * code with the same words but for the numbers or the nullish value in them (`Uninitialized string
 * offset 48`, `… 21`; `Cannot read properties of undefined`, `… of null`: each test's input) is one
 * cause too, and so is a check at one line with the same values whose
 * words differ only in the literal they quote (a table's rows: `RuneWidth('☆') = 1, want 2`,
 * `RuneWidth('♥') = 1, want 2`). A failure that says nothing but its name is a cause of its own.
 * Groups keep the order of their first failure.
 */
export function groupByRootCause(failures: readonly Failure[]): FailureGroup[] {
  const byCause = new Map<string, Failure[]>();
  const groups: Failure[][] = [];
  for (const failure of failures) {
    const causes = [
      causeOf(failure),
      thrownCauseOf(failure),
      checkedCauseOf(failure),
      pairCauseOf(failure),
    ].filter((cause): cause is string => cause !== null);
    const group = causes.map((cause) => byCause.get(cause)).find((found) => found !== undefined);
    const joined = group ?? [failure];
    if (group === undefined) groups.push(joined);
    else group.push(failure);
    for (const cause of causes) if (!byCause.has(cause)) byCause.set(cause, joined);
  }
  return groups as unknown as FailureGroup[];
}

/** An error without values as thrown at its line, numbers aside; null for other failures. */
function thrownCauseOf(failure: Failure): string | null {
  const message = oneLine(failure.message);
  if (message === "" || failure.line === null || failure.expected !== null) return null;
  if (failure.received !== null) return null;
  const quoted = message.replace(QUOTED, "$1…$1");
  // In a thrown error's words a word with a digit in it is data too: an address (`10.0.0.2/26`,
  // `fe80::/125`), an id; a check's own words (a table's rows) keep all but numbers apart. Which
  // nullish value the data held (`Cannot read properties of undefined`, `… of null`) is the
  // data's, like a number: the missing check is the same.
  const words = (
    THROWN.test(message) ? withoutDataWords(quoted) : quoted.replace(/\d+/g, "#")
  ).replace(/\b(?:undefined|null)\b/g, "∅");
  return JSON.stringify(["thrown", failure.file, failure.line, words, failure.rule ?? null]);
}

/** `text` with each word holding a digit (between blanks and brackets, quotes, commas) as `#`. */
function withoutDataWords(text: string): string {
  return text
    .split(/([\s'"`,;()[\]{}])/)
    .map((word) => (/\d/.test(word) ? "#" : word))
    .join("");
}

/**
 * A failed check with values as made at its line, whatever its words; null for others. One line
 * is one check: words that differ there differ only in the data the check formatted into them
 * (a table's row, its input, the options a helper was called with: doublestar's `Glob(…, opts:
 * nil) … should have 3 results, got 2` in ten tests through one helper).
 */
function checkedCauseOf(failure: Failure): string | null {
  const { expected, received } = failure;
  if (failure.line === null || expected === null || received === null) return null;
  return JSON.stringify([
    "checked",
    failure.file,
    failure.line,
    oneLine(expected),
    oneLine(received),
    failure.rule ?? null,
  ]);
}

/**
 * A pair of values distinctive enough to be one cause wherever and by whichever matcher it was
 * checked (necromancer's `1..10` / `1...10` under `eql` in one spec and `eq` in another;
 * js-quantities' `0` / `14.222222222222229` under `toBe` and `toEqual`); null for a pair any
 * two checks could share (`true`/`false`, `0`/`1`, `null`, an empty value, `false, <nil>`):
 * each side at least `MIN_DISTINCT_SIDE` code points long, and more than such values.
 */
function pairCauseOf(failure: Failure): string | null {
  const { expected, received } = failure;
  if (expected === null || received === null) return null;
  const [wanted, got] = [oneLine(expected), oneLine(received)];
  const distinct = (value: string) =>
    value.length >= MIN_DISTINCT_SIDE &&
    !value.split(/[\s,;()[\]{}]+/).every((token) => token === "" || TRIVIAL.test(token));
  if (!distinct(wanted) || !distinct(got)) return null;
  return JSON.stringify(["pair", wanted, got, failure.rule ?? null]);
}

/** Shortest side of a pair that says which cause it is on its own. */
const MIN_DISTINCT_SIDE = 3;

/** Values any check may print (a side made of them only, `false, <nil>`, too): a pair of them says nothing of which cause it is. */
const TRIVIAL = /^(?:true|false|null|undefined|nil|<nil>|None|NaN|""|''|-?\d{1,3})$/;

/**
 * What a failure says went wrong, as a key; null when it says nothing beyond its name. A
 * message that only repeats the test's name (TAP and node-tap name an assertion by its message:
 * `Error: inc(1.2.3) === 1.3.0`) says nothing of the cause: the values alone do.
 */
function causeOf(failure: Failure): string | null {
  const own = oneLine(failure.message);
  const message = failure.test?.includes(withoutErrorName(own)) === true ? "" : own;
  const { expected, received } = failure;
  if (expected === null || received === null) {
    if (message === "") return null;
    // An error thrown in the code under test is a cause where it was thrown: the same words
    // from two lines of the library are two paths to fix (a deque's `peekFront` and
    // `removeFront`), which `thrownCauseOf` keeps apart. Placed in a test's file, the place is
    // only where each test called: the words are the cause.
    if (expected === null && received === null && isThrownInCode(failure)) return null;
    return JSON.stringify([message, expected, received, failure.rule ?? null]);
  }
  // The pair as shown: printed structures that differ in the same element the same way (rows of
  // one table whose other fields vary) show one difference, so they are one cause. Other values
  // are compared whole: two sentences that differ in the same word are two pairs. The words
  // without the values they quote still tell one kind of check from another.
  const shown =
    isStructure(expected) && isStructure(received)
      ? shownPair(expected, received)
      : { expected: oneLine(expected), received: oneLine(received) };
  // An expectation's subject differs from test to test (RSpec's `expect(Case.camelcase(input)).to
  // eq(expected)` and `expect(Case.constcase(input))…`): its matcher is the kind of check.
  const words = isBarePair(message)
    ? "!="
    : kindOfCheck(withoutErrorName(message), [oneLine(expected), oneLine(received)]);
  return JSON.stringify([words, shown.expected, shown.received, failure.rule ?? null]);
}

/** Whether a failure is an error thrown by name at a line of the code under test, not of a test's file. */
function isThrownInCode(failure: Failure): boolean {
  return (
    failure.file !== null &&
    failure.line !== null &&
    !isTestPath(failure.file) &&
    THROWN.test(oneLine(failure.message))
  );
}

/**
 * A printed object or array (`{ a: 1 }`, `[1, 2]`, `User { id: 1 }`, `Map(2) {…}`, Python's
 * `Binding(key='a', line=0)`), whose elements rows share.
 */
function isStructure(value: string): boolean {
  return /^(?:(?:[\w$.]+(?:\(\d+\))? )?[[{].*[\]}]|[A-Z][\w.]*\(.*\))$/.test(oneLine(value));
}
