import type { Failure, TestOutputParser } from "../feedback.js";
import { numberAfter } from "./reported-count.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import { parseLocation } from "../extractor/stack-frames.js";
import { MAX_FIELD_LENGTH } from "../field-length.js";

/** The closing counts: `Tests: 8, Assertions: 5, Errors: 1, Failures: 4, Skipped: 1.`, `OK (3 tests, 5 assertions)`. */
const TOTALS = /^Tests: \d+, Assertions: \d+(?:, [A-Z][a-z]+(?: [a-z]+)?: \d+)*\.$/;
const ALL_PASSED = /^OK \(\d+ tests?, \d+ assertions?\)$/;

/** A section heading: `There was 1 error:`, `There were 4 failures:`, `There were 2 risky tests:`. */
const SECTION = /^There (?:was|were) \d+ ([a-z ]+):$/;

/** A numbered report: `2) CartTest::testListsItems`, `4) CartTest::testQuantities with data set "two" ('2', 3)`. */
const NUMBERED = /^(\d+)\) ([^\s:]+::\S.*)$/;

/** A frame: an absolute (or relative) `path/File.php:12` alone on its line. */
const FRAME = /^(\S+\.php:\d+)$/;

/**
 * PHPUnit 8–11's default output: one failure per numbered report under `There were N errors:`
 * and `There were N failures:` (skipped, incomplete, risky tests and warnings are not failures),
 * named `Class::method` (a data set's name included), at its first frame outside `vendor/`, with
 * the report's first line as the message. `Failed asserting that X is identical to Y.` / `…
 * matches expected Y.` give received X and expected Y; an `--- Expected` / `+++ Actual` diff gives
 * its `-` and `+` lines.
 */
export const phpunitParser: TestOutputParser = {
  name: "phpunit",
  detect: (output) =>
    logLines(output).some((line) => {
      const trimmed = line.trim();
      return TOTALS.test(trimmed) || ALL_PASSED.test(trimmed);
    }),
  parse: (output) => reports(logLines(output)).map(reportFailure),
  reportedFailures: (output) => {
    for (const line of logLines(output)) {
      const trimmed = line.trim();
      if (ALL_PASSED.test(trimmed)) return 0;
      if (!TOTALS.test(trimmed)) continue;
      const count = (key: string): number => numberAfter(trimmed, `, ${key}: `) ?? 0;
      return count("Errors") + count("Failures");
    }
    return null;
  },
};

/** A numbered report and its lines. */
interface Report {
  readonly test: string;
  readonly lines: string[];
}

/** The numbered reports of the error and failure sections. */
function reports(lines: readonly string[]): Report[] {
  const found: Report[] = [];
  let failing = false;
  let current: Report | null = null;
  for (const line of lines) {
    const trimmed = line.trim();
    const section = SECTION.exec(trimmed);
    if (section?.[1] !== undefined) {
      failing = /^(?:errors?|failures?)$/.test(section[1]);
      current = null;
      continue;
    }
    if (trimmed === "--" || TOTALS.test(trimmed) || /^(?:ERRORS|FAILURES)!$/.test(trimmed)) {
      current = null;
      continue;
    }
    const numbered = failing ? NUMBERED.exec(trimmed) : null;
    if (numbered?.[2] !== undefined) {
      current = { test: numbered[2], lines: [] };
      found.push(current);
      continue;
    }
    current?.lines.push(trimmed);
  }
  return found;
}

/**
 * A PHPUnit report given whole — its test's name, then its lines as PHPUnit prints them (the
 * body of a JUnit XML `<failure>` holds the same) — read as `phpunitParser` reads a numbered one.
 */
export function phpunitReportFailure(test: string, lines: readonly string[]): Failure {
  return reportFailure({ test, lines: lines.map((line) => line.trim()) });
}

/** One report as a failure: its first line, its values, its first frame outside `vendor/`. */
function reportFailure(report: Report): Failure {
  const frames = report.lines.flatMap((line) => {
    const frame = FRAME.exec(line);
    const location = frame?.[1] === undefined ? null : parseLocation(frame[1]);
    return location === null || location.file.includes("/vendor/") ? [] : [location];
  });
  const text = report.lines.filter((line) => line !== "" && !FRAME.test(line));
  // A check's own message (`assertEquals($expected, $actual, 'Overwrite should replace …')`) is
  // printed above PHPUnit's `Failed asserting that …`: PHPUnit's words say what failed, the
  // test's follow them.
  const [first = "", second = ""] = text;
  const message =
    second.startsWith("Failed asserting that ") && !first.startsWith("Failed asserting that ")
      ? `${second} ${first}`
      : first;
  const values = assertedValues(text) ?? diffValues(text);
  const side = (value: string | undefined): string | null =>
    value === undefined || value === "" ? null : truncateCodePoints(value, MAX_FIELD_LENGTH);
  return failureOf({
    test: report.test,
    ...(frames[0] ?? {}),
    expected: side(values?.expected),
    received: side(values?.received),
    message: truncateCodePoints(message, MAX_FIELD_LENGTH),
  });
}

/** `Failed asserting that '123' is identical to 123.`, `… that 16 matches expected 15.` */
function assertedValues(text: readonly string[]): { expected: string; received: string } | null {
  for (const line of text) {
    if (!line.startsWith("Failed asserting that ") || !line.endsWith(".")) continue;
    const claim = line.slice("Failed asserting that ".length, -1);
    for (const verb of [" is identical to ", " matches expected ", " is equal to "]) {
      const at = claim.lastIndexOf(verb);
      if (at > 0) return { received: claim.slice(0, at), expected: claim.slice(at + verb.length) };
    }
  }
  return null;
}

/** The `-` (expected) and `+` (actual) lines of an `--- Expected` / `+++ Actual` diff; a side may be empty. */
function diffValues(text: readonly string[]): { expected: string; received: string } | null {
  const start = text.indexOf("--- Expected");
  if (start < 0 || text[start + 1] !== "+++ Actual") return null;
  const expected: string[] = [];
  const received: string[] = [];
  for (const line of text.slice(start + 2)) {
    if (line.startsWith("-")) expected.push(line.slice(1).trim());
    else if (line.startsWith("+")) received.push(line.slice(1).trim());
  }
  return expected.length === 0 && received.length === 0
    ? null
    : { expected: expected.join("\n"), received: received.join("\n") };
}
