import { valuesFromMessage } from "./assertion-values.js";
import { truncateCodePoints } from "../clean/code-points.js";
import type { Failure } from "../feedback.js";
import { helperCaller, type UserFrame } from "./helper-frames.js";
import { isTestPath, type SourceLocation } from "./stack-frames.js";
import { MAX_FIELD_LENGTH } from "../field-length.js";
import { isRunnerCut } from "../clean/runner-cut.js";

/**
 * Where a draft came from: a named test, a whole file the runner marked failed (`FAIL file`),
 * or details found outside any test (an uncaught error in a log). Orphans only count when the
 * output names no failing test at all.
 */
export type DraftKind = "test" | "file" | "orphan";

/** Which side of a comparison a printed value belongs to. */
export type Side = "expected" | "received";

/** A failure while its lines are still being read; every fact is first-come, first-kept. */
export interface FailureDraft {
  readonly kind: DraftKind;
  /** Go's `=== RUN` opens a draft that only becomes a failure if `--- FAIL` names it. */
  provisional: boolean;
  test: string | null;
  file: string | null;
  line: number | null;
  expected: string | null;
  received: string | null;
  /** cargo's `left:`/`right:`; which is expected depends on the assertion, known at the end. */
  left: string | null;
  right: string | null;
  message: string;
  /** The first fact line as printed, the message of last resort (`Expected: token …`). */
  firstDetail: string;
  /** An error class printed apart from its message (TAP's `name: 'RangeError'`). */
  errorName: string | null;
  /** The comparison a TAP producer names (tape's `operator: equal`). */
  operator: string | null;
  /** Where the test is declared (TAP `location:`), used only when no frame said where it failed. */
  declared: SourceLocation | null;
  /** The outermost user frame of a JavaScript stack read so far: the test's own code. */
  outermost: SourceLocation | null;
  /** Whether that frame is an anonymous function's (a test's callback), not a named helper's. */
  outermostIsCallback: boolean;
  /** The user frames of a JavaScript stack read so far, innermost first (at most `MAX_FRAMES`). */
  readonly frames: UserFrame[];
  /** The test function's own frame where the runner names it (cargo's backtrace), else null. */
  testFrame: SourceLocation | null;
  /** Whether a diff's changed lines only reorder one side's: a pair the message states wins. */
  reordered: boolean;
}

/** User frames a draft keeps: a helper and its caller are among the first few. */
export const MAX_FRAMES = 16;

/** An empty draft. */
export function newDraft(kind: DraftKind, test: string | null, file: string | null): FailureDraft {
  return {
    kind,
    provisional: false,
    test,
    file,
    line: null,
    expected: null,
    received: null,
    left: null,
    right: null,
    message: "",
    firstDetail: "",
    errorName: null,
    operator: null,
    declared: null,
    outermost: null,
    outermostIsCallback: false,
    frames: [],
    testFrame: null,
    reordered: false,
  };
}

/** Whether anything beyond a name was found: a message or a value. */
export function hasDetails(draft: FailureDraft): boolean {
  return (
    draft.message !== "" ||
    draft.firstDetail !== "" ||
    draft.expected !== null ||
    draft.received !== null ||
    draft.left !== null ||
    draft.right !== null
  );
}

/** Records one side's value unless an earlier line already gave it. */
export function setValue(draft: FailureDraft, side: Side, value: string, printed: string): void {
  if (value === "") return;
  if (side === "expected") draft.expected ??= value;
  else draft.received ??= value;
  if (draft.firstDetail === "") draft.firstDetail = printed;
}

/** Records the error's first line unless an earlier line already gave it. */
export function setMessage(draft: FailureDraft, message: string): void {
  if (draft.message === "" && message !== "") draft.message = message;
}

/**
 * Records where the failure happened unless a line is already known. A file without a line
 * (from a `FAIL file` header) yields to a frame that says exactly where.
 */
export function setLocation(draft: FailureDraft, location: SourceLocation): void {
  if (draft.line !== null) return;
  draft.file = location.file;
  draft.line = location.line;
}

/** The draft as a failure: message fallbacks applied, cargo's sides resolved, values parsed from the message last. */
export function finishDraft(draft: FailureDraft): Failure {
  let message = draft.message === "" ? draft.firstDetail : draft.message;
  // tape's error only repeats the assertion's own name (`Error: two`, tape's default `should be
  // equal` too, which the name already says): its comparison says what failed
  // (`operator: equal`), beside a default's words. `t.fail`'s words are its own.
  if (draft.operator !== null && draft.operator !== "fail" && repeatsName(message, draft.test)) {
    message = message.replace(/^Error: /, "").startsWith("should ")
      ? `${message} (operator: ${draft.operator})`
      : `operator: ${draft.operator}`;
  }
  if (draft.errorName !== null && !message.includes(draft.errorName)) {
    message = message === "" ? draft.errorName : `${draft.errorName}: ${message}`;
  }
  let { expected, received } = draft;
  if (draft.left !== null && draft.right !== null) {
    // `assert_eq!(actual, expected)` is Rust's convention; other comparisons only get quoted.
    if (message.includes("left == right")) {
      expected ??= draft.right;
      received ??= draft.left;
    } else {
      message = `${message} (left: ${draft.left}, right: ${draft.right})`.trim();
    }
  }
  const stated = valuesFromMessage(message);
  // A diff prints strings bare (`- Foo-Bar`) where the message quotes them (`expected 'Foo--Bar'
  // to match object 'Foo-Bar'`): the quotes say the values are strings, so the message's win.
  // A diff that shows one side only (`toMatchObject`'s `- "bar": "bar",` with no `+` line), or
  // only elements that moved, says less than a message that states both: the message's pair wins.
  const oneSided = (expected === null) !== (received === null);
  if (
    stated !== null &&
    ((expected === null && received === null) ||
      oneSided ||
      draft.reordered ||
      isWholeObjectPair(stated) ||
      (unquoted(stated.expected) === expected && unquoted(stated.received) === received))
  ) {
    expected = stated.expected;
    received = stated.received;
  }
  const located = draft.line === null && draft.declared !== null;
  const first = draft.frames[0]?.location;
  const helped = helperCaller(draft.frames);
  // An assertion made in a shared helper is the test's line that called it (it says which check
  // failed); so is a plain `Error` that a helper file shared by specs throws (`throw new Error("…
  // failed but should have passed")`, a check written as a throw). A crash (`TypeError`, …), or an
  // error under the spec file's own `it`, stays where it was thrown, the test's frame beside it.
  const caller = isAssertion(message, expected, received)
    ? helped
    : isPlainError(message) && helped !== null && helped.file !== first?.file
      ? helped
      : null;
  const { outermost } = draft;
  // Jest's `toThrow` prints the stack of the error it got before its own: the check failed at
  // the test's line, however deep the code under test threw. When nothing was thrown (`Received
  // function did not throw`), the first frame is the check's own line, a callback's in a loop
  // (`forEach(() => expect(…).toThrow())`) too, not the test's outermost frame.
  const aboutThrown =
    THROW_MATCHER.test(message) &&
    received !== null &&
    outermost !== null &&
    isTestPath(outermost.file);
  const place = aboutThrown
    ? outermost
    : caller !== null && first?.file === draft.file && first.line === draft.line
      ? caller
      : { file: draft.file, line: draft.line };
  // In the same file only a test's callback says something new (a local helper threw or failed
  // under it); a named frame there is the `describe` around a timed-out test's declaration.
  const elsewhere =
    outermost !== null &&
    isTestPath(outermost.file) &&
    (outermost.file !== place.file || (draft.outermostIsCallback && outermost.line !== place.line));
  return {
    test: capped(draft.test),
    file: located ? (draft.declared?.file ?? null) : place.file,
    line: located ? (draft.declared?.line ?? null) : place.line,
    expected: capped(expected),
    received: capped(received),
    message: truncateCodePoints(message, MAX_FIELD_LENGTH),
    ...(testLocationOf(draft, place, elsewhere) ?? {}),
  };
}

/**
 * The test's own frame beside a place elsewhere: the one the runner names, else the outermost
 * user frame of a stack when it lies in a test file apart from the place.
 */
function testLocationOf(
  draft: FailureDraft,
  place: { readonly file: string | null; readonly line: number | null },
  elsewhere: boolean,
): { testLocation: SourceLocation } | null {
  const own = draft.testFrame;
  if (own !== null) {
    return own.file === place.file && own.line === place.line ? null : { testLocation: own };
  }
  return elsewhere && draft.line !== null && draft.outermost !== null
    ? { testLocation: draft.outermost }
    : null;
}

/** A check of what a function throws: `expect(received).toThrow(expected)`, `.rejects.toThrowError(…)`. */
const THROW_MATCHER = /^expect\(received\)\.(?:rejects\.|not\.)?toThrow(?:Error)?\(/;

/** Whether a message says nothing but the last part of the test's name (`Error: two`, `two`). */
function repeatsName(message: string, test: string | null): boolean {
  const words = message.replace(/^Error: /, "").trim();
  const cut = test?.lastIndexOf(" > ") ?? -1;
  const leaf = test === null ? "" : cut < 0 ? test : test.slice(cut + " > ".length);
  return words === "" || words === leaf.trim();
}

/** Whether a failure is a failed check rather than a thrown error: it has values or says so. */
function isAssertion(message: string, expected: string | null, received: string | null): boolean {
  return (
    expected !== null || received !== null || /AssertionError|\bexpect\(|\bassert/i.test(message)
  );
}

/** A value without the quotes around it (`'a'` → `a`); any other value as it is. */
function unquoted(value: string): string {
  return /^(["'`]).*\1$/s.test(value) && value.length >= 2 ? value.slice(1, -1) : value;
}

/** Whether the message is a plain `Error`'s, the kind code throws on purpose, not a crash. */
function isPlainError(message: string): boolean {
  return message.startsWith("Error: ");
}

/** A field cut to `MAX_FIELD_LENGTH`. */
function capped(value: string | null): string | null {
  return value === null ? null : truncateCodePoints(value, MAX_FIELD_LENGTH);
}

/**
 * Longest pair of printed objects (both sides together) a message states that stands for the
 * diff below it: about what the diff's changed lines cost, so the whole values cost no more. A
 * longer pair (`{ token: 'abc', userId: 123 }` against `… '123' }`, 60) leaves the diff's
 * changed lines, which name the property that differs at half the length.
 */
const MAX_STATED_OBJECTS = 50;

/**
 * Whether a message states two whole objects or arrays, short enough to read at once (Vitest's
 * `expected { null: 'hello' } to deeply equal { 'invalid%key': 'hello' }`): each side whole in
 * one line, where the diff below gives the changed lines alone (`"invalid%key": "hello",`) or
 * spells the same values over many lines. A side the runner cut (pytest's `{'_netloc_sep...t':
 * None, ...}`) is not whole, nor two that read the same (chai's `{ Object (__value, _) }` for two
 * different objects).
 */
function isWholeObjectPair(stated: { expected: string; received: string }): boolean {
  const sides = [stated.expected, stated.received];
  return (
    stated.expected !== stated.received &&
    sides.every((side) => /^[[{].*[\]}]$/.test(side) && !isRunnerCut(side)) &&
    sides.join("").length <= MAX_STATED_OBJECTS
  );
}
