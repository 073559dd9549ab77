import { codePointLength, ELLIPSIS, truncateCodePoints } from "../clean/code-points.js";
import { elideValues } from "./elide-values.js";
import { oneLine } from "../../one-line.js";
import type { Failure } from "../feedback.js";
import { valueDifference } from "../extractor/value-difference.js";

/** Longest error message in a whole item: the error's first line, not a dump. */
const MAX_WHOLE_MESSAGE = 160;
/** Longest error message in a brief item without values: enough for the error and its gist. */
const MAX_BRIEF_MESSAGE = 48;
/** Longest note beside values in a brief item: the kind of check, with the values elided. */
const MAX_BRIEF_NOTE = 40;

/**
 * One actionable item per failure, facts first: `file:line test: expected X, received Y (the
 * error's first line)`, or the error's own words when the values are unknown. Multi-line values
 * are folded onto one line.
 */
export function failureItem(failure: Failure): string {
  return failureItemForms(failure).at(-1) ?? "";
}

/**
 * A failure's item from its briefest form to the whole one (`failureItem`), for fitting to pick
 * the fullest that fits: where and which test alone; then with the values, long ones shortened
 * to the part that differs; the values whole; with the kind of check (the error's words, values
 * elided); with those words whole. Brief forms name a file only once: `…:12` when the item
 * before (`previous`) or the test's own name already says which file.
 */
export function failureItemForms(failure: Failure, previous?: Failure): string[] {
  const brief = who(failure, previous, true);
  const whole = who(failure, previous, false);
  const facts = factForms(failure);
  const item = (where: string, what: string): string => (where === "" ? what : `${where}: ${what}`);
  return [
    brief === "" ? item(brief, facts[0] ?? "") : brief,
    ...facts.slice(0, -1).map((what) => item(brief, what)),
    item(whole, facts.at(-1) ?? ""),
  ];
}

/** The headline of a failure: the values when known, else its message, else its name. */
export function failureGist(failure: Failure): string {
  if (failure.expected !== null && failure.received !== null)
    return comparison(failure.expected, failure.received);
  return oneLine(failure.message) || (failure.test ?? failure.file ?? "failing test");
}

/**
 * `file:line test`, or `file:line:col rule` for a lint or compiler finding. A load failure
 * named by its file is not named twice. In `brief`, the file is `…` when `previous` names the
 * same one or the test's name starts with it (pytest's `file::test`).
 */
function who(failure: Failure, previous: Failure | undefined, brief: boolean): string {
  const { file } = failure;
  const test = failure.test === file ? null : failure.test;
  const implied =
    brief && file !== null && (previous?.file === file || (test?.startsWith(file) ?? false));
  const name = test ?? failure.rule ?? "";
  return [place(failure, implied), name].filter((part) => part !== "").join(" ");
}

/**
 * `file:line[:col]`, `…:line` when the file is `implied`, the file alone, or nothing; a thrown
 * error's place is followed by the test's own frame (`src/a.js:10 (from test/a.test.js:8)`,
 * `…:336` when it is in the same file).
 */
function place({ file, line, column, testLocation }: Failure, implied: boolean): string {
  if (file === null || (line === null && implied)) return "";
  if (line === null) return file;
  const at = `${implied ? ELLIPSIS : file}:${line}${column === undefined ? "" : `:${column}`}`;
  if (testLocation === undefined) return at;
  const from = testLocation.file === file ? ELLIPSIS : testLocation.file;
  return `${at} (from ${from}:${testLocation.line})`;
}

/** What went wrong, without where, from briefest to whole. */
function factForms(failure: Failure): string[] {
  const message = oneLine(failure.message);
  const { expected, received } = failure;
  if (expected !== null && received !== null) {
    const values = comparison(expected, received);
    const difference = valueDifference(oneLine(expected), oneLine(received));
    // The error's own words name the kind of check (`toBe`, `strictly equal`, `left == right`),
    // which the values alone do not.
    const notes = [
      briefNote(withoutErrorName(message), [oneLine(expected), oneLine(received)]),
      withoutErrorName(message),
      message,
    ].map((note) => (saysMoreThan(note, failure) ? note : ""));
    const [gist = "", brief = "", whole = ""] = notes;
    return [
      difference === undefined ? values : comparison(difference.expected, difference.received),
      values,
      withNote(values, gist),
      withNote(values, truncateCodePoints(brief, MAX_WHOLE_MESSAGE)),
      withNote(values, truncateCodePoints(whole, MAX_WHOLE_MESSAGE)),
    ];
  }
  const sides = [
    expected === null ? "" : `expected ${oneLine(expected)}`,
    received === null ? "" : `received ${oneLine(received)}`,
  ];
  // Without values, the error's name tells a failed check from a crash: only the briefest
  // forms leave out a generic one.
  const bare = truncateCodePoints(withoutErrorName(message), MAX_BRIEF_MESSAGE);
  const brief = truncateCodePoints(message, MAX_BRIEF_MESSAGE);
  const whole = truncateCodePoints(message, MAX_WHOLE_MESSAGE);
  return [bare, bare, brief, whole, whole].map(
    (words) => [words, ...sides].filter((part) => part !== "").join("; ") || "failed",
  );
}

/**
 * The error's words cut to `MAX_BRIEF_NOTE`, with the values they quote elided first when they
 * are longer: what is left names the kind of check.
 */
function briefNote(message: string, values: readonly string[]): string {
  const note = codePointLength(message) <= MAX_BRIEF_NOTE ? message : elideValues(message, values);
  return truncateCodePoints(note, MAX_BRIEF_NOTE);
}

/** `values (note)`, or the values alone when there is no note. */
function withNote(values: string, note: string): string {
  return note === "" ? values : `${values} (${note})`;
}

/** Words that only label values; a message made of them and the values repeats the values. */
const VALUE_LABELS: ReadonlySet<string> = new Set([
  "expected",
  "received",
  "actual",
  "got",
  "want",
]);

/**
 * Whether `message` has words of its own beyond the values it quotes (`Expected: 4` has none)
 * and is not the test's own name (TAP names an assertion by its message).
 */
function saysMoreThan(message: string, failure: Failure): boolean {
  if (message === "" || (failure.test?.includes(message) ?? false)) return false;
  const values = [failure.expected ?? "", failure.received ?? ""].filter((value) => value !== "");
  const rest = values.reduce((text, value) => text.replaceAll(oneLine(value), " "), message);
  return (rest.match(/[a-z]{2,}/gi) ?? []).some((word) => !VALUE_LABELS.has(word.toLowerCase()));
}

/**
 * A message without a leading `AssertionError:` or bare `Error:` (with a code such as
 * `[ERR_ASSERTION]`), which every assertion failure shares and so says nothing in brief.
 */
function withoutErrorName(message: string): string {
  return message.replace(/^(?:Assertion)?Error(?: \[\w+\])?: (?=\S)/, "");
}

/** `expected X, received Y`. */
function comparison(expected: string, received: string): string {
  return `expected ${oneLine(expected)}, received ${oneLine(received)}`;
}
