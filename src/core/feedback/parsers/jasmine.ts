import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { isNamedFrame } from "../extractor/helper-frames.js";
import { frameLocation, isInternalPath, type SourceLocation } from "../extractor/stack-frames.js";
import { topLevelParts } from "../clean/quoted-text.js";

/** Longest message kept, as for every other failure field. */
const MAX_MESSAGE_LENGTH = 1000;
/** Jasmine's closing count: `9 specs, 6 failures, 2 pending specs`. */
const SUMMARY = /^\d+ specs?, (\d+) failures?/m;
/** A failed spec's header in the `Failures:` list, or a suite's error (an `afterAll` that threw). */
const HEADER = /^(?:\d+\) |Suite error: )(\S.*)$/;
/** The frame Jasmine gives the spec's own function: `at UserContext.<anonymous> (spec/a.spec.js:5:49)`. */
const SPEC_FRAME = "at UserContext.";
/** The start of a printed value: a quote, a number, a bracket, or a constant. */
const LITERAL = /^(?:["'`[{(\d-]|(?:true|false|null|undefined|NaN|-?Infinity)\b)/;

/** A `toEqual` difference of an array's or a string's length: `Expected $.foo.length = 2 to equal 3.` */
const LENGTH_DIFFERENCE = /^Expected \$\S*\.length = \d+ to equal \d+\.$/;

/**
 * Jasmine 3–5's default reporter: the `Failures:` list (`1) suite spec`, then `Message:` and
 * `Stack:` for each failed expectation, so a spec with two failed expectations is two failures)
 * and `Suite error: suite` blocks. Pending specs (`xit`, `xdescribe`, listed under `Pending:`)
 * are never failures. An expectation is located at the spec's own frame (`UserContext`), not at
 * a shared helper that called `expect`; a thrown error at its first user frame, with the spec's
 * frame as the test's own. `Expected 3 to be 4.` and `Expected $.city = 'Paris' to equal
 * 'Lyon'.` give the values as printed.
 */
export const jasmineParser: TestOutputParser = {
  name: "jasmine",
  detect: (output) =>
    (SUMMARY.test(output) &&
      (output.includes("\nFailures:\n") || output.includes("Suite error: "))) ||
    (EXECUTED.test(output) && FAILURES_BANNER.test(output)),
  parse: (output): readonly Failure[] => {
    const lines = logLines(output);
    return SUMMARY.test(output) ? failures(lines) : specReporterFailures(lines);
  },
  reportedFailures: (output) => {
    const count = SUMMARY.exec(output)?.[1] ?? EXECUTED.exec(output)?.[1];
    return count === undefined ? null : Number(count);
  },
};

/** jasmine-spec-reporter's closing count: `Executed 279 of 279 specs (13 FAILED) in 4 secs.` */
const EXECUTED = /^Executed \d+ of \d+ specs? \((\d+) FAILED\)/m;
/** jasmine-spec-reporter's banner over its list of failed specs: `*   Failures   *`. */
const FAILURES_BANNER = /^\* +Failures +\*$/m;
/** One failed expectation of a spec in jasmine-spec-reporter's list: `  - Expected 0 to equal 4.` */
const LISTED_EXPECTATION = /^ +- (\S.*)$/;

/**
 * jasmine-spec-reporter's `Failures` list (a project's own reporter in place of Jasmine's): `1)
 * suite spec` at the margin, then each failed expectation as `  - message` with its frames
 * below (`at UserContext.<anonymous> (spec/a.spec.js:425:65)`), so a spec with five failed
 * expectations is five failures. A message that starts `Expected` is a matcher's; any other
 * (`TypeError: …`) an error thrown at its first user frame. The progress tree above the list
 * (`✗ spec (0.109 sec)`) repeats the list and is not read.
 */
function specReporterFailures(lines: readonly string[]): Failure[] {
  const found: Failure[] = [];
  let listing = false;
  let name: string | null = null;
  let current: { message: string; stack: string[] } | null = null;
  const finish = (): void => {
    if (name !== null && current !== null)
      found.push(
        expectation(
          name,
          [current.message],
          current.stack,
          current.message.startsWith("Expected "),
        ),
      );
    current = null;
  };
  for (const raw of lines) {
    const trimmed = raw.trim();
    if (FAILURES_BANNER.test(trimmed)) listing = true;
    if (EXECUTED.test(trimmed)) {
      finish();
      listing = false;
    }
    if (!listing) continue;
    const header = raw === trimmed ? /^\d+\) (\S.*)$/.exec(trimmed) : null;
    const listed = LISTED_EXPECTATION.exec(raw);
    if (header !== null) {
      finish();
      name = header[1] ?? null;
    } else if (listed?.[1] !== undefined && name !== null) {
      finish();
      current = { message: listed[1], stack: [] };
    } else if (current !== null && trimmed.startsWith("at ")) {
      current.stack.push(trimmed);
    }
  }
  finish();
  return found;
}

/** One failure per failed expectation of every spec (and suite error) in the `Failures:` list. */
function failures(lines: readonly string[]): Failure[] {
  const found: Failure[] = [];
  let name: string | null = null;
  let message: string[] = [];
  let stack: string[] = [];
  let reading: "message" | "stack" | null = null;
  const finish = (): void => {
    if (name !== null && (message.length > 0 || stack.length > 0))
      found.push(expectation(name, message, stack));
    message = [];
    stack = [];
  };
  let listing = false;
  for (const raw of lines) {
    const trimmed = raw.trim();
    const header = raw === trimmed ? HEADER.exec(trimmed) : null;
    if (trimmed === "Failures:" || trimmed.startsWith("Suite error: ")) listing = true;
    if (trimmed === "Pending:" || SUMMARY.test(trimmed)) {
      finish();
      listing = false;
      name = null;
    }
    if (!listing) continue;
    if (header !== null) {
      finish();
      name = header[1] ?? null;
      reading = null;
    } else if (trimmed === "Message:") {
      if (reading === "stack") finish();
      reading = "message";
    } else if (trimmed === "Stack:") {
      reading = "stack";
    } else if (trimmed !== "" && reading !== null) {
      (reading === "message" ? message : stack).push(trimmed);
    }
  }
  finish();
  return found;
}

/**
 * One failed expectation (or thrown error) of spec `name`: its message, values and place.
 * `matcher` says whether a matcher failed, when the stack cannot (jasmine-spec-reporter prints
 * no `at <Jasmine>` first).
 */
function expectation(
  name: string,
  message: readonly string[],
  stack: readonly string[],
  matcher?: boolean,
): Failure {
  const frames = stack
    .map((line) => ({ line, frame: frameLocation(line) }))
    .filter(
      (entry): entry is { line: string; frame: SourceLocation } =>
        entry.frame !== null && !isInternalPath(entry.frame.file),
    );
  const specAt = frames.findIndex((entry) => entry.line.startsWith(SPEC_FRAME));
  const spec = (specAt < 0 ? frames.at(-1) : frames[specAt])?.frame;
  // A matcher's failure starts in Jasmine itself (`at <Jasmine>`); a thrown error in user code.
  const thrown =
    matcher === undefined
      ? stack[0] !== undefined && frameLocation(stack[0]) !== null && frames[0] !== undefined
      : !matcher && frames[0] !== undefined;
  // An expectation in a callback of the spec's own body (`items.forEach((item) => expect…)`)
  // is at the callback's line, the anonymous frame of the spec's file right above its frame.
  const callback = frames
    .slice(0, Math.max(specAt, 0))
    .find((entry) => entry.frame.file === spec?.file && !isNamedFrame(entry.line))?.frame;
  const place = thrown ? frames[0]?.frame : (callback ?? spec);
  const values = thrown ? null : differenceValues(message);
  return {
    test: name,
    file: place?.file ?? null,
    line: place?.line ?? null,
    expected: values?.expected ?? null,
    received: values?.received ?? null,
    // `toEqual` prints one line per difference: all of them are the message.
    message: truncateCodePoints(message.join(" "), MAX_MESSAGE_LENGTH),
    ...(thrown && spec !== undefined && spec.file !== place?.file ? { testLocation: spec } : {}),
  };
}

/**
 * The values of the first of `toEqual`'s differences that is not of a length (a length differs
 * because elements do, and the elements' values say what is missing or wrong), else of the
 * first line.
 */
function differenceValues(
  message: readonly string[],
): { expected: string; received: string } | null {
  const element = message
    .filter((line) => !LENGTH_DIFFERENCE.test(line.trim()))
    .map((line) => expectedValues(line.trim()))
    .find((values) => values !== null);
  return element ?? expectedValues(message[0] ?? "");
}

/**
 * The values of `Expected <actual> to be <expected>.` and `Expected [$.path = ]<actual> to equal
 * <expected>.`; `to be` only with a printed value (`to be defined` names a matcher).
 */
function expectedValues(message: string): { expected: string; received: string } | null {
  if (!message.startsWith("Expected ") || !message.endsWith(".")) return null;
  const text = message.slice("Expected ".length, -1);
  for (const verb of [" to equal ", " to be "]) {
    const at = text.indexOf(verb);
    if (at < 0) continue;
    const expected = withoutFailOutput(text.slice(at + verb.length));
    if (verb === " to be " && !LITERAL.test(expected)) return null;
    const actual = text.slice(0, at);
    const path = actual.startsWith("$") ? actual.indexOf(" = ") : -1;
    const received = path < 0 ? actual : actual.slice(path + 3);
    return expected === "" || received === "" ? null : { expected, received };
  }
  return null;
}

/**
 * A printed expected value without the text a spec passed as the matcher's last argument, which
 * Jasmine appends after a comma (`to be 0.2, Object({ first: 'a' })`): Jasmine's printed values
 * have commas only inside brackets and quotes.
 */
function withoutFailOutput(expected: string): string {
  return topLevelParts(expected, ", ")[0] ?? expected;
}
