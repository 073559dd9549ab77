import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import { isRubyFrame, rubyProjectFrames, testMethodFrame } from "./ruby-frames.js";
import { firstCountsIn } from "./reported-count.js";
import { MAX_FIELD_LENGTH, cappedValues } from "../field-length.js";

/** The closing count: `606 tests, 1444 assertions, 4 failures, 4 errors, 0 pendings, …`. */
const TOTALS =
  /^\d+ tests, \d+ assertions, (\d+) failures, (\d+) errors, \d+ pendings, \d+ omissions, \d+ notifications$/;

/**
 * A report's header: `Failure: test_ext(TestFileList)`, `Error: test_sub(TestFileList):`, with
 * an error's words after the colon when they fit on it.
 */
const HEADER = /^(Failure|Error|Pending|Omission|Notification): (.+?\([\w:]+\))(?::(?: (.*))?)?$/;

/** The rule test-unit draws around each report. */
const RULE = /^={40,}$/;

/** A line of the source test-unit quotes under a frame: `     333: `, `  => 336:     assert_equal …`. */
const SOURCE_LINE = /^\s*(?:=>\s*)?\d+:(?: |$)/;

/** `assert_equal`'s two sides: `<"one.net"> expected but was` above `<"one..net">`. */
const EXPECTED_BUT_WAS = /^(<.*>) expected but was$/;

/**
 * test-unit's reports (Ruby's other bundled framework, rake's and Ruby's default gems' suites):
 * one failure per `Failure:`/`Error:` report between its `=` rules (pendings, omissions and
 * notifications never), named as printed (`test_ext(TestFileList)`), at its backtrace's first
 * frame outside gems and Ruby's library — a failed assertion's own line, an error's raise, with
 * the test method's frame as the test's place; `<X> expected but was` / `<Y>` as the values,
 * brackets kept as printed; the closing `N failures, M errors` is the count.
 */
export const testUnitParser: TestOutputParser = {
  name: "test-unit",
  detect: (output) => firstCountsIn(logLines(output), TOTALS) !== null,
  parse: (output) => reports(logLines(output)).flatMap(reportFailure),
  reportedFailures: (output) => firstCountsIn(logLines(output), TOTALS),
};

/** A report while its lines are read. */
interface Report {
  readonly kind: string;
  readonly test: string;
  /** The error's words on the header's line, "" when they follow below it. */
  readonly words: string;
  readonly lines: string[];
}

/** Each report with its lines, from its header to the rule that closes it. */
function reports(lines: readonly string[]): Report[] {
  const found: Report[] = [];
  let current: Report | null = null;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header?.[1] !== undefined && header[2] !== undefined) {
      current = { kind: header[1], test: header[2], words: header[3] ?? "", lines: [] };
      found.push(current);
    } else if (RULE.test(line.trim())) {
      current = null;
    } else {
      current?.lines.push(line.trimEnd());
    }
  }
  return found;
}

/** One report as a failure; a pending, omitted or notified test as none. */
function reportFailure(report: Report): Failure[] {
  if (report.kind !== "Failure" && report.kind !== "Error") return [];
  const frames = rubyProjectFrames(report.lines);
  const place = frames[0];
  const method = report.test.slice(0, report.test.lastIndexOf("("));
  const own = testMethodFrame(frames, method);
  const words = messageLines(report.lines);
  const values = report.kind === "Failure" ? valuesOf(words) : null;
  const message =
    report.kind === "Error" && report.words === ""
      ? (words[0] ?? "")
      : [report.words, ...words].join(" ");
  return [
    failureOf({
      test: report.test,
      ...(place === undefined ? {} : { file: place.file, line: place.line }),
      ...(values ?? {}),
      message: truncateCodePoints(message.trim(), MAX_FIELD_LENGTH),
      ...(own === undefined || own === place
        ? {}
        : { testLocation: { file: own.file, line: own.line } }),
    }),
  ];
}

/**
 * A report's own words: its lines without the backtrace, the source quoted under it and the
 * `diff:` that closes a failed comparison; an error's highlighted source and suggestions after
 * its first line are left out too.
 */
function messageLines(lines: readonly string[]): string[] {
  const words: string[] = [];
  for (const line of lines) {
    if (line === "diff:") break;
    if (line.trim() === "" || isRubyFrame(line) || SOURCE_LINE.test(line)) continue;
    // Ruby's error_highlight (`^^^^`) and `Did you mean?` lines are indented under the error.
    if (words.length > 0 && /^\s{2}/.test(line) && !/^\s*</.test(line)) continue;
    words.push(line.trim());
  }
  return words;
}

/** `<X> expected but was` and the `<Y>` below it: expected `<X>`, received `<Y>`. */
function valuesOf(words: readonly string[]): { expected: string; received: string } | null {
  const at = words.findIndex((line) => EXPECTED_BUT_WAS.test(line));
  const expected = EXPECTED_BUT_WAS.exec(words[at] ?? "")?.[1];
  const received = words[at + 1];
  if (expected === undefined || received === undefined || !/^<.*>$/.test(received)) return null;
  return cappedValues(expected, received);
}
