import type { Failure, TestOutputParser } from "../feedback.js";
import { reportedFailures } from "../extractor/general-extractor.js";
import { logLines } from "../clean/log-lines.js";
import { isSameFile, parseLocation, type SourceLocation } from "../extractor/stack-frames.js";
import { isJunit, junitFailures, junitReportedFailures } from "../reports/junit.js";
import { countsIn } from "./reported-count.js";
import { fileLoadFailure } from "./load-failure.js";

/**
 * node:test (Node 18–24): the spec reporter (`▶ suite`, `✖ test`, `ℹ tests N` summary), the TAP
 * reporter (`# Subtest:` with `duration_ms` and YAML diagnostics whose `expected:`/`actual:` keep
 * the types as YAML quoting: `'123'` vs `123`) and the JUnit reporter (`classname="test"`).
 * Values keep the quoting Node printed. Names are the suite path joined by ` > `.
 */
export const nodeTestParser: TestOutputParser = {
  name: "node-test",
  detect: (output) => isNodeJunit(output) || isNodeTap(output) || isNodeSpec(output),
  parse: (output): readonly Failure[] => {
    const failures = isNodeJunit(output) ? junitFailures(output) : reportedFailures(output);
    const notes = specNotes(logLines(output));
    return failures.map((failure) =>
      isLoadFailure(failure) ? fileLoadFailure(failure, output) : withNotes(failure, notes),
    );
  },
  reportedFailures: (output) => {
    if (isNodeJunit(output)) return junitReportedFailures(output);
    const lines = logLines(output);
    const recapped = recapCount(lines);
    if (recapped !== null) return recapped;
    // A test cut by its timeout counts as cancelled, not failed.
    const counted = countsIn(output, /^(?:ℹ|#) (?:fail|cancelled) (\d+)$/gm);
    return counted === null ? null : counted - failedParents(lines);
  },
};

/**
 * The tests the spec reporter's `✖ failing tests:` recap lists, each `✖ name` once: `ℹ fail`
 * also counts every `test()` that failed only because a subtest did (hast-util-to-html's 26
 * parents beside 59 tests), which has no failure of its own to name. Null without a recap.
 */
function recapCount(lines: readonly string[]): number | null {
  const start = lines.findIndex((line) => line.trim() === "✖ failing tests:");
  if (start < 0) return null;
  const count = lines.slice(start + 1).filter((line) => line.startsWith("✖ ")).length;
  return count === 0 ? null : count;
}

/**
 * TAP's tests that failed only because subtests did (`failureType: 'subtestsFailed'`): `# fail`
 * counts a parent `test()` (a `describe` suite, `type: 'suite'`, it does not), yet it has no
 * failure of its own to name, so leaving it in the count would end the items in `+2 more`
 * with nothing left to show.
 */
function failedParents(lines: readonly string[]): number {
  let parents = 0;
  let suite = false;
  let subtests = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === "---") {
      suite = false;
      subtests = false;
    } else if (trimmed === "type: 'suite'") suite = true;
    else if (trimmed === "failureType: 'subtestsFailed'") subtests = true;
    else if (trimmed === "...") {
      if (subtests && !suite) parents += 1;
      subtests = false;
    }
  }
  return parents;
}

/** What the spec reporter says about a failed test besides its error: where, and a bare message. */
interface SpecNote {
  location: SourceLocation | null;
  message: string;
}

/**
 * The spec reporter's `test at file:line:col` lines (each above a `✖ name` in the `failing
 * tests` recap) and the quoted message under a `✖ name` (`'test timed out after 100ms'`),
 * by test name as the line prints it (without its suites): one note per test of that name, as
 * two files can each have a test of one name.
 */
function specNotes(lines: readonly string[]): Map<string, SpecNote[]> {
  const notes = new Map<string, SpecNote[]>();
  let location: SourceLocation | null = null;
  let last: SpecNote | null = null;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith("test at ")) {
      location = parseLocation(trimmed.slice("test at ".length));
    } else if (trimmed.startsWith("✖ ")) {
      const name = trimmed.slice(2).replace(/ \(\d+(?:\.\d+)?ms\)$/, "");
      const named = notes.get(name) ?? [];
      // The tree names a test first, without a place; its recap line says where it is.
      last =
        location === null
          ? (named[0] ?? null)
          : (named.find((note) => note.location === null) ?? null);
      if (last === null) {
        last = { location: null, message: "" };
        notes.set(name, [...named, last]);
      }
      last.location ??= location;
      location = null;
    } else {
      if (last !== null && last.message === "" && /^'.+'$/.test(trimmed)) {
        last.message = trimmed.slice(1, -1);
      }
      last = null;
    }
  }
  return notes;
}

/**
 * The note of a failure's test among those of its name: the one in the failure's file, else the
 * only one; several elsewhere say nothing sure.
 */
function noteOf(
  failure: Failure,
  notes: ReadonlyMap<string, readonly SpecNote[]>,
): SpecNote | undefined {
  const name = failure.test ?? "";
  const at = name.lastIndexOf(" > ");
  const named = notes.get(at < 0 ? name : name.slice(at + 3)) ?? notes.get(name) ?? [];
  const file = failure.file;
  const inFile =
    file === null
      ? undefined
      : named.find((note) => note.location !== null && isSameFile(note.location.file, file));
  return inFile ?? (named.length === 1 ? named[0] : undefined);
}

/** A failure completed with what the spec reporter said apart from the error. */
function withNotes(failure: Failure, notes: ReadonlyMap<string, readonly SpecNote[]>): Failure {
  const note = noteOf(failure, notes);
  if (note === undefined) return failure;
  const located = failure.line === null && note.location !== null;
  // A stack Node cut at ten frames may not reach the test: its `test at` line still names it.
  const declaredElsewhere =
    !located &&
    failure.testLocation === undefined &&
    note.location !== null &&
    !isSameFile(note.location.file, failure.file ?? "");
  return {
    ...failure,
    file: located ? (note.location?.file ?? null) : failure.file,
    line: located ? (note.location?.line ?? null) : failure.line,
    message: failure.message === "" ? note.message : failure.message,
    ...(declaredElsewhere && note.location !== null ? { testLocation: note.location } : {}),
  };
}

/** A test file that did not load: node:test names the failure by the file and says only `test failed`. */
function isLoadFailure(failure: Failure): boolean {
  return (
    failure.test !== null &&
    failure.test.includes("/") &&
    (failure.message === "" || failure.message.includes("test failed")) &&
    failure.expected === null &&
    failure.received === null
  );
}

/** The spec reporter's closing counters, printed by no other runner. */
function isNodeSpec(output: string): boolean {
  return output.includes("ℹ tests ") && output.includes("ℹ duration_ms ");
}

/** node:test's TAP: subtests with `duration_ms` diagnostics. */
function isNodeTap(output: string): boolean {
  return (
    output.includes("# Subtest: ") &&
    output.includes("duration_ms: ") &&
    !output.split("\n").some((line) => line.endsWith(" {") && TEST_POINT.test(line))
  );
}

/**
 * A TAP test point; one that ends in ` {` buffers its subtests in braces (`not ok 1 -
 * test/a.test.ts # time=3ms {`), as Vitest's `tap` reporter writes them and node:test never
 * does: such a log is read as TAP, though a node:test file's own TAP may be printed in it too.
 */
const TEST_POINT = /^\s*(?:not )?ok \d+ - /;

/** node:test's JUnit report: every test case's `classname` is `test`. */
function isNodeJunit(output: string): boolean {
  return isJunit(output) && output.includes('classname="test"') && output.includes("hostname=");
}
