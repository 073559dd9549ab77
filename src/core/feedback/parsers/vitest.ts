import type { Failure, TestOutputParser } from "../feedback.js";
import { reportedFailures } from "../extractor/general-extractor.js";
import { logLines } from "../clean/log-lines.js";
import { jestReportCount, jestReportFailures } from "../reports/jest-report.js";
import { countsIn } from "./reported-count.js";
import { jsonLineStartingWith } from "../reports/json-report.js";
import { type JsonRecord } from "../../json-record.js";
import { junitFailures, junitReportedFailures } from "../reports/junit.js";
import { loadFailure } from "./load-failure.js";

/** The first key of Vitest's `--reporter=json` report (Jest's starts with another). */
const JSON_MARKER = '{"numTotalTestSuites":';
/** The root element Vitest's `--reporter=junit` writes. */
const JUNIT_MARKER = '<testsuites name="vitest tests"';
/** How Vitest joins a test's suite path. */
const VITEST_NAME_SEPARATOR = " > ";

/**
 * Vitest 1–4: the default reporter (`FAIL file > suite > test`, `Test Files` summary), the
 * `--reporter=json` report (Jest's format; Vitest keeps no matcher values there, so expected and
 * received are read from the printed message, quoting as printed) and the `--reporter=junit`
 * report (read as generic JUnit).
 */
export const vitestParser: TestOutputParser = {
  name: "vitest",
  detect: (output) =>
    output.includes(JUNIT_MARKER) || vitestReport(output) !== null || isVitestText(output),
  parse: (output): readonly Failure[] => {
    if (output.includes(JUNIT_MARKER)) return junitFailures(output);
    const report = vitestReport(output);
    if (report !== null) {
      return jestReportFailures(report, VITEST_NAME_SEPARATOR);
    }
    // The extractor reads a suite that failed to load as a nameless failure; its block says more.
    const tests = reportedFailures(output).filter((failure) => failure.test !== null);
    return [...tests, ...failedSuites(logLines(output))];
  },
  reportedFailures: (output) => {
    if (output.includes(JUNIT_MARKER)) return junitReportedFailures(output);
    const report = vitestReport(output);
    if (report !== null) return jestReportCount(report);
    if (!/^ {0,6}Tests {1,2}\d/m.test(output)) return null;
    // `Tests` counts tests; a file that did not load is counted by the `Failed Suites` banner.
    const tests = countsIn(output, /^ {0,6}Tests {1,2}(\d+) failed/gm) ?? 0;
    return tests + (countsIn(output, /Failed Suites (\d+) ⎯/g) ?? 0);
  },
};

/**
 * The `FAIL  file [ file ]` blocks of Vitest's `Failed Suites` section, up to the `⎯⎯⎯` rule.
 * Files that failed with one error are listed as headers one under the other, the error once
 * below the last: each of them failed with it.
 */
function failedSuites(lines: readonly string[]): Failure[] {
  const failures: Failure[] = [];
  let files: string[] = [];
  let block: string[] = [];
  const finish = (): void => {
    for (const file of files) failures.push(loadFailure(file, block.join("\n")));
    files = [];
    block = [];
  };
  for (const line of lines) {
    const trimmed = line.trim();
    const header = /^FAIL {1,2}(\S+) \[ /.exec(trimmed);
    if (header?.[1] !== undefined) {
      if (block.some((kept) => kept.trim() !== "")) finish();
      files.push(header[1]);
    } else if (trimmed.startsWith("⎯⎯")) {
      finish();
    } else if (files.length > 0) {
      block.push(line);
    }
  }
  finish();
  return failures;
}

/** Vitest's JSON report in the output. */
function vitestReport(output: string): JsonRecord | null {
  return output.includes(JSON_MARKER) ? jsonLineStartingWith(output, JSON_MARKER) : null;
}

/** Vitest's run banner (` RUN  v4.0.0 /path`) or its summary's `Test Files` line. */
function isVitestText(output: string): boolean {
  return output.includes(" RUN  v") || output.includes(" Test Files  ");
}
