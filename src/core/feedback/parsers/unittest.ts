import type { Failure, TestOutputParser } from "../feedback.js";
import { numberAfter } from "./reported-count.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import { frameLocation, type SourceLocation } from "../extractor/stack-frames.js";
import { bareAssertionMessage, readTraceback, type PythonFrame } from "./python-traceback.js";
import { MAX_FIELD_LENGTH, cappedValues } from "../field-length.js";
import { sidesAsCalled, withoutSequenceLabel } from "./python-sides.js";

/** The rule unittest draws above every report (70 `=`), and between a report's parts (70 `-`). */
const REPORT_RULE = /^={70}$/;
const PART_RULE = /^-{70}$/;

/** A report's header: `FAIL: test_x (tests.test_a.ATest.test_x)`, `ERROR: setUpClass (tests.test_a.ATest)`. */
const HEADER = /^(FAIL|ERROR): (\S.*)$/;

/** The closing count: `Ran 3 tests in 0.001s`. */
const RAN = /^Ran \d+ tests? in \d/;

/** The verdict under it: `FAILED (failures=2, errors=1, skipped=1)`, `OK`, `OK (skipped=1)`. */
const VERDICT = /^(?:FAILED|OK) \(([a-z =\d,]+)\)$|^OK$/;

/**
 * `python -m unittest` (and any `unittest.TextTestRunner`): one failure per `FAIL:`/`ERROR:`
 * report, named as the report names it (`test_x (tests.test_a.ATest.test_x)`, a subtest's
 * parameters included), at the last user frame of its traceback, with the final exception's
 * first line as the message and `assertEqual`'s `first != second` as received and expected. A
 * doctest failure is placed at its failing example with the doctest's `Expected:`/`Got:` (or the
 * exception the example raised). A module that failed to import is named by the module.
 */
export const unittestParser: TestOutputParser = {
  name: "unittest",
  detect: (output) => {
    const lines = logLines(output);
    return lines.some((line) => RAN.test(line)) && lines.some((line) => REPORT_RULE.test(line));
  },
  parse: (output) => reports(logLines(output)).map(reportFailure),
  reportedFailures: (output) => {
    for (const line of logLines(output)) {
      const verdict = VERDICT.exec(line.trim());
      if (verdict === null) continue;
      const count = (key: string): number => numberAfter(`, ${verdict[1] ?? ""}`, `, ${key}=`) ?? 0;
      return count("failures") + count("errors");
    }
    return null;
  },
};

/** One `FAIL:`/`ERROR:` report: its header and the lines under it up to the next report. */
interface Report {
  readonly kind: "FAIL" | "ERROR";
  readonly title: string;
  readonly lines: string[];
}

/** The reports of the output, each with its lines (the title's docstring and rules included). */
function reports(lines: readonly string[]): Report[] {
  const found: Report[] = [];
  let current: Report | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (REPORT_RULE.test(line)) {
      const header = HEADER.exec(lines[index + 1] ?? "");
      current =
        header?.[2] === undefined
          ? null
          : { kind: header[1] === "FAIL" ? "FAIL" : "ERROR", title: header[2], lines: [] };
      if (current !== null) found.push(current);
      index += current === null ? 0 : 1;
      continue;
    }
    // The run's closing rule and count end the last report.
    if (PART_RULE.test(line) && RAN.test(lines[index + 1] ?? "")) current = null;
    current?.lines.push(line);
  }
  return found;
}

/** A report as a failure: a doctest's, a module that did not import, or a test's traceback. */
function reportFailure(report: Report): Failure {
  const doctest = doctestFailure(report);
  if (doctest !== null) return doctest;
  const { frames, exception } = readTraceback(report.lines);
  const last = frames.at(-1);
  // A bare `AssertionError` (an `assert` statement) is said by the statement it failed.
  const message = bareAssertionMessage(exception[0]?.trim() ?? "", last?.source ?? "");
  // The place alone: the function a frame ran is no field of a failure.
  const innermost: Partial<SourceLocation> =
    last === undefined ? {} : { file: last.file, line: last.line };
  const own = testFrame(report, frames);
  const helped = own !== null && (own.file !== innermost.file || own.line !== innermost.line);
  const asserted = message.startsWith("AssertionError");
  const values = message.startsWith("AssertionError: ")
    ? sidesAsCalled(assertedValues(exception), last?.source ?? "")
    : null;
  return failureOf({
    test: testName(report.title),
    // A check made in a shared helper fails at the test's line that called it; an error thrown
    // deeper is placed where it was thrown, the test's line beside it.
    ...(helped && asserted ? own : innermost),
    ...(helped && !asserted ? { testLocation: own } : {}),
    ...(values ?? {}),
    message: truncateCodePoints(message, MAX_FIELD_LENGTH),
  });
}

/**
 * The frame of the test method itself (`File "…", line 159, in testUniqueIds` of the report
 * `testUniqueIds (tests.test_toc.TestTOC.testUniqueIds)`), the last one when it recurs; null
 * when the traceback does not pass through it (a `setUpClass`, a module that did not import).
 */
function testFrame(report: Report, frames: readonly PythonFrame[]): SourceLocation | null {
  const method = /^(\w+) \(/.exec(report.title)?.[1];
  const frame = method === undefined ? undefined : frames.findLast((f) => f.function === method);
  return frame === undefined ? null : { file: frame.file, line: frame.line };
}

/** `tests.test_a (unittest.loader._FailedTest.tests.test_a)`, a module that failed to import, is named by the module. */
function testName(title: string): string {
  const failedImport = /^(\S+) \(unittest\.loader\._Failed\w+\.\S+\)$/.exec(title);
  return failedImport?.[1] ?? title;
}

/**
 * `assertEqual(first, second)`'s `AssertionError: first != second` (and `: msg` after it) as
 * received and expected, as `assertEqual(result, expected)` puts them (`sidesAsCalled` turns
 * them round for a call that does not). When unittest cut a side
 * (`[truncated]...`, or the middle of two long strings: `'>a block quote\n>>and a[90 chars]e.\n'`),
 * a sequence's `First differing element 13:` gives the two elements on the lines below it, else
 * the `-`/`+` lines of its diff below hold them whole, the first line that differs first.
 */
function assertedValues(
  exception: readonly string[],
): { expected: string; received: string } | null {
  const text = withoutSequenceLabel((exception[0] ?? "").slice("AssertionError: ".length));
  const at = text.indexOf(" != ");
  if (at <= 0) return null;
  const received = text.slice(0, at);
  const rest = text.slice(at + " != ".length);
  // `assertAlmostEqual` says `within 7 places`, a custom message follows ` : `.
  const expected = withoutTolerance(rest.split(" : ")[0] ?? "");
  if (!isShortened(received) && !isShortened(expected)) {
    return expected === "" ? null : cappedValues(expected, received);
  }
  const minus = exception.find((line) => line.startsWith("- "));
  const plus = exception.find((line) => line.startsWith("+ "));
  // A sequence check names the first element that differs, each side's on a line of its own:
  // unless the diff's lines are the whole sequences, its lines are elements of a long one spread
  // over many lines (`-  '        },',`), their separators glued on.
  const differing = exception.findIndex((line) => /^First differing element \d+:$/.test(line));
  const [first, second] = differing < 0 ? [] : exception.slice(differing + 1, differing + 3);
  const wholeDiff = minus !== undefined && /^- [[(].*[\])]$/.test(minus);
  if (!wholeDiff && first !== undefined && second !== undefined && first !== "" && second !== "") {
    return cappedValues(second, first);
  }
  // Without a diff (`Diff is 1136 characters long.`), the sides as cut still show where they differ.
  if (minus === undefined || plus === undefined) {
    return expected === "" || received.includes("[truncated]")
      ? null
      : cappedValues(expected, received);
  }
  return cappedValues(plus.slice(2), minus.slice(2));
}

/** Whether unittest shortened a side it printed: `…[truncated]...`, `…[90 chars]…`. */
function isShortened(side: string): boolean {
  return side.includes("[truncated]") || /\[\d+ chars\]/.test(side);
}

/**
 * A doctest's report: `AssertionError: Failed doctest test for pkg.fn`, then per failing example
 * `File "…", line N, in pkg.fn`, `Failed example:` and either `Expected:`/`Got:` blocks or
 * `Exception raised:` with its traceback. The first failing example says where and what.
 */
function doctestFailure(report: Report): Failure | null {
  const start = report.lines.findIndex((line) => line.startsWith("AssertionError: Failed doctest"));
  if (start < 0) return null;
  const message = (report.lines[start] ?? "").slice("AssertionError: ".length);
  let example: SourceLocation | null = null;
  let part: "example" | "expected" | "got" | "raised" | null = null;
  const blocks: Record<"example" | "expected" | "got" | "raised", string[]> = {
    example: [],
    expected: [],
    got: [],
    raised: [],
  };
  for (const line of report.lines.slice(start + 1)) {
    if (PART_RULE.test(line)) {
      // A later example's report: the first one is the failure.
      if (example !== null) break;
      continue;
    }
    if (example === null) {
      example = line.startsWith('File "') ? frameLocation(line) : null;
      continue;
    }
    const heading = DOCTEST_HEADINGS.get(line.trim());
    if (heading !== undefined) part = heading;
    else if (part !== null && line.startsWith("    ")) blocks[part].push(line.slice(4));
  }
  const raised = readTraceback(blocks.raised).exception[0]?.trim();
  const expected = blocks.expected.join("\n");
  const received = raised ?? blocks.got.join("\n");
  return failureOf({
    test: testName(report.title),
    ...(example ?? {}),
    ...(expected === "" ? {} : { expected: truncateCodePoints(expected, MAX_FIELD_LENGTH) }),
    ...(received === "" ? {} : { received: truncateCodePoints(received, MAX_FIELD_LENGTH) }),
    message,
  });
}

/** doctest's headings inside an example's report, and the block each opens. */
const DOCTEST_HEADINGS: ReadonlyMap<string, "example" | "expected" | "got" | "raised"> = new Map([
  ["Failed example:", "example"],
  ["Expected:", "expected"],
  ["Got:", "got"],
  ["Exception raised:", "raised"],
] as const);

/**
 * `assertAlmostEqual`'s right side without its tolerance: `2.0 within 7 places (1.0 difference)`
 * is `2.0`. Found by position: a pattern with `\(.*\)$` after a run costs quadratic time.
 */
function withoutTolerance(side: string): string {
  if (!side.endsWith(")") || side.includes("\n")) return side;
  for (let at = side.indexOf(" within "); at >= 0; at = side.indexOf(" within ", at + 1)) {
    const words = side.slice(at + " within ".length).split(" ");
    if ((words[1] === "places" || words[1] === "delta") && words[2]?.startsWith("(") === true) {
      return side.slice(0, at);
    }
  }
  return side;
}
