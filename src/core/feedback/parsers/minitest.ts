import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import type { SourceLocation } from "../extractor/stack-frames.js";
import { rubyProjectFrames, testMethodFrame } from "./ruby-frames.js";
import { firstCountsIn } from "./reported-count.js";
import { firstChangedPair } from "./diff-pair.js";
import { MAX_FIELD_LENGTH, cappedValues } from "../field-length.js";

/** The closing count: `112 runs, 150 assertions, 4 failures, 1 errors, 0 skips`. */
const TOTALS = /^\d+ runs, \d+ assertions, (\d+) failures, (\d+) errors, \d+ skips$/;

/** A report's header: `  1) Failure:`, `  3) Error:`, or Rails' unnumbered `Failure:`. */
const HEADER = /^\s*(?:\d+\) )?(Failure|Error|Skipped):$/;

/** Rails' rerun line after a report: `bin/rails test test/models/user_test.rb:4`. */
const RERUN = /^(?:bin\/)?rails test (\S+):(\d+)$/;

/**
 * Minitest's reports (Ruby's bundled test framework, and Rails' `bin/rails test`): one failure
 * per numbered `Failure:`/`Error:` report (`Skipped:` never), named as printed
 * (`CartTest#test_sum`), a failed assertion at the place its name line gives (else Rails' rerun
 * line's), an error at its backtrace's first frame in the project with the test's own frame as
 * the test's place;
 * `Expected: X` / `Actual: Y` as the values, or the first lines its `--- expected` / `+++
 * actual` diff changes; the closing `N failures, M errors` is the count.
 */
export const minitestParser: TestOutputParser = {
  name: "minitest",
  detect: (output) => firstCountsIn(logLines(output), TOTALS) !== null,
  parse: (output) => reports(logLines(output)).flatMap(reportFailure),
  reportedFailures: (output) => firstCountsIn(logLines(output), TOTALS),
};

/** Whether `line` is the closing count, which ends the last report. */
function isTotals(line: string): boolean {
  return firstCountsIn([line], TOTALS) !== null;
}

/** A report while its lines are read. */
interface Report {
  readonly kind: string;
  readonly lines: string[];
  /** Where Rails' rerun line below the report says the test is declared. */
  rerun: SourceLocation | null;
}

/** Each report with its lines: from its header to the next header, rerun line or the totals. */
function reports(lines: readonly string[]): Report[] {
  const found: Report[] = [];
  let current: Report | null = null;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header?.[1] !== undefined) {
      current = { kind: header[1], lines: [], rerun: null };
      found.push(current);
      continue;
    }
    const trimmed = line.trim();
    const rerun = RERUN.exec(trimmed);
    if (current !== null && rerun?.[1] !== undefined) {
      current.rerun = { file: rerun[1], line: Number(rerun[2]) };
    }
    if (rerun !== null || trimmed.startsWith("Finished in ") || isTotals(trimmed)) {
      current = null;
      continue;
    }
    current?.lines.push(line);
  }
  return found;
}

/** One report as a failure; a skipped test's, or one without a name line, as none. */
function reportFailure(report: Report): Failure[] {
  const [nameLine = "", ...body] = report.lines.map((line) => line.trimEnd());
  if (report.kind === "Skipped" || !nameLine.endsWith(":")) return [];
  const placed = placedName(nameLine);
  const test = placed?.test ?? nameLine.slice(0, -1);
  if (report.kind === "Error") return [errorFailure(test, body, report.rerun)];
  const values = diffValues(body) ?? expectedActual(body);
  const words = body.filter((line) => line.trim() !== "");
  const valueStart = words.findIndex((line) => /^(?:Expected: |--- expected$)/.test(line));
  const message = (valueStart >= 0 ? words.slice(0, valueStart) : words.slice(0, 1)).join(" ");
  // Rails 5's name line has no place: its rerun line's, where the test is declared, stands in.
  const place = placed?.place ?? report.rerun;
  return [
    failureOf({
      test,
      ...(place === null ? {} : place),
      ...(values ?? {}),
      message: truncateCodePoints(message, MAX_FIELD_LENGTH),
    }),
  ];
}

/**
 * A failure's name line with the assertion's place, `CartTest#test_sum [test/cart_test.rb:5]:`,
 * read by position (a pattern would backtrack over a long name); null for a line without one.
 */
function placedName(line: string): { test: string; place: SourceLocation } | null {
  const open = line.lastIndexOf(" [");
  if (open < 0 || !line.endsWith("]:")) return null;
  const inside = line.slice(open + 2, -2);
  const colon = inside.lastIndexOf(":");
  const number = inside.slice(colon + 1);
  if (colon <= 0 || !/^\d+$/.test(number)) return null;
  return {
    test: line.slice(0, open),
    place: { file: inside.slice(0, colon), line: Number(number) },
  };
}

/**
 * An error's report: its first line is the error (`NoMethodError: undefined method …`), Ruby's
 * highlighted source and suggestions follow, then the backtrace.
 */
function errorFailure(
  test: string,
  body: readonly string[],
  rerun: SourceLocation | null,
): Failure {
  const frames = rubyProjectFrames(body);
  const place = frames[0] ?? (rerun === null ? undefined : { ...rerun, method: "" });
  const method = test.slice(test.lastIndexOf("#") + 1);
  const own = testMethodFrame(frames, method);
  const testLocation: SourceLocation | undefined =
    own === undefined || own === place ? undefined : { file: own.file, line: own.line };
  return failureOf({
    test,
    ...(place === undefined ? {} : { file: place.file, line: place.line }),
    message: truncateCodePoints(
      body.find((line) => line.trim() !== "")?.trim() ?? "",
      MAX_FIELD_LENGTH,
    ),
    ...(testLocation === undefined ? {} : { testLocation }),
  });
}

/** `Expected: 3` and `  Actual: 4`, the two lines `assert_equal` prints for short values. */
function expectedActual(body: readonly string[]): { expected: string; received: string } | null {
  const expected = body.find((line) => line.startsWith("Expected: "));
  const actual = body.find((line) => line.trimStart().startsWith("Actual: "));
  if (expected === undefined || actual === undefined) return null;
  return cappedValues(
    expected.slice("Expected: ".length),
    actual.trimStart().slice("Actual: ".length),
  );
}

/**
 * What minitest adds above a side whose string encoding differs (`+# encoding: ASCII-8BIT`,
 * `+#    valid: true`): notes on the value, not lines of it.
 */
const ENCODING_NOTE = /^[-+ ]#\s+(?:encoding: \S+|valid: (?:true|false))$/;

/**
 * The first line `assert_equal`'s diff of long or multi-line values takes out (`-`, the
 * expected side's) and the first it puts in (`+`) in that hunk, indentation kept.
 */
function diffValues(body: readonly string[]): { expected: string; received: string } | null {
  const start = body.indexOf("--- expected");
  if (start < 0 || body[start + 1] !== "+++ actual") return null;
  const hunk: string[] = [];
  for (const line of body.slice(start + 2)) {
    if (line.startsWith("@@") && hunk.length > 0) break;
    if (!line.startsWith("@@") && !ENCODING_NOTE.test(line)) hunk.push(line);
  }
  const pair = firstChangedPair(hunk);
  if (pair === null) return null;
  return cappedValues(pair.removed, pair.added);
}
