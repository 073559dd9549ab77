import type { Failure, TestOutputParser } from "../feedback.js";
import { reportedFailures } from "../extractor/general-extractor.js";
import { logLines } from "../clean/log-lines.js";
import {
  JEST_NAME_SEPARATOR,
  jestReportCount,
  jestReportFailures,
} from "../reports/jest-report.js";
import { countsIn } from "./reported-count.js";
import { jsonLineStartingWith } from "../reports/json-report.js";
import { type JsonRecord } from "../../json-record.js";
import { loadFailure } from "./load-failure.js";
import { withoutTreeEchoes } from "./tree-echoes.js";

/** The first key of Jest's `--json` report. */
const JSON_MARKER = '{"numFailedTestSuites":';

/**
 * Jest 27–30: the default reporter (`FAIL file`, `● suite › test`, `Test Suites:` summary) and
 * the `--json` report. The JSON report wins when both are present (Jest prints its text report
 * to stderr beside it); its matcher values are kept as JavaScript literals (see
 * `jestReportFailures`), while text keeps the quoting Jest printed (`Received: "123"`).
 */
export const jestParser: TestOutputParser = {
  name: "jest",
  detect: (output) => jestReport(output) !== null || isJestText(output),
  parse: (output): readonly Failure[] => {
    const report = jestReport(output);
    if (report !== null) return jestReportFailures(report, JEST_NAME_SEPARATOR);
    // The extractor reads a suite that failed to run as a nameless failure; the file's own block says more.
    const tests = reportedFailures(output).filter((failure) => failure.test !== null);
    return [...withoutTreeEchoes(tests), ...suitesFailedToRun(logLines(output))];
  },
  reportedFailures: (output) => {
    const report = jestReport(output);
    if (report !== null) return jestReportCount(report);
    if (!isJestText(output)) return null;
    // `Tests:` counts tests; a file that did not run counts under `Test Suites:` only.
    const tests = countsIn(output, /^Tests: +(\d+) failed/gm) ?? 0;
    return tests + (countsIn(output, /^ {0,4}● Test suite failed to run$/gm) ?? 0);
  },
};

/** Jest's `● Test suite failed to run` blocks, each under its `FAIL file` header. */
function suitesFailedToRun(lines: readonly string[]): Failure[] {
  const failures: Failure[] = [];
  let file: string | null = null;
  let block: string[] | null = null;
  const finish = (): void => {
    if (file !== null && block !== null) failures.push(loadFailure(file, block.join("\n")));
    block = null;
  };
  for (const line of lines) {
    const trimmed = line.trim();
    // Coloured, the badge is padded (` FAIL `); plain, it starts the line.
    if (/^(?:FAIL|PASS) /.test(trimmed) || trimmed.startsWith("Test Suites: ")) {
      finish();
      file = trimmed.startsWith("FAIL ") ? trimmed.slice(5).trim() : null;
    } else if (trimmed === "● Test suite failed to run") {
      finish();
      block = [];
    } else if (trimmed.startsWith("● ")) {
      finish();
    } else {
      block?.push(line);
    }
  }
  finish();
  return failures;
}

/** Jest's JSON report in the output; Vitest's look-alike lacks `openHandles`. */
function jestReport(output: string): JsonRecord | null {
  if (!output.includes(JSON_MARKER)) return null;
  const report = jsonLineStartingWith(output, JSON_MARKER);
  return report !== null && "openHandles" in report ? report : null;
}

/** Jest's closing summary, which no other runner prints. */
function isJestText(output: string): boolean {
  return output.includes("\nTest Suites: ") || output.startsWith("Test Suites: ");
}
