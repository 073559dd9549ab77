import type { Failure, TestOutputParser } from "../feedback.js";
import { failureFromReport, reportedFailures } from "../extractor/general-extractor.js";
import { loadFailure } from "./load-failure.js";
import { literalOf, parseRecord, stringOf } from "../reports/json-report.js";
import { recordsOf, type JsonRecord } from "../../json-record.js";
import { withoutTreeEchoes } from "./tree-echoes.js";
import { countsIn } from "./reported-count.js";
import { logLines } from "../clean/log-lines.js";

/** How Mocha's JSON reporter starts its (pretty-printed) document. */
const JSON_MARKER = '{\n  "stats": {';

/**
 * Mocha: the spec reporter (`1) suite\n  test:` blocks after `N failing`) and `--reporter json`;
 * a spec file that does not load (`Exception during run:`) is the one failure.
 * Names are Mocha's `fullTitle` (suite path joined by spaces, as Mocha prints it). In the JSON
 * report Mocha keeps `err.actual`/`err.expected` as values when their types differ (so they are
 * rendered as JavaScript literals: `"123"` vs `123`, `undefined` for a dropped key) and as its
 * own printed strings when they agree (used as printed, like the spec reporter's diff).
 */
export const mochaParser: TestOutputParser = {
  name: "mocha",
  detect: (output) =>
    output.includes(JSON_MARKER) || output.includes(RUN_EXCEPTION) || isMochaText(output),
  parse: (output): readonly Failure[] => {
    const crash = runException(output);
    if (crash !== null) return [crash];
    const report = mochaReport(output);
    if (report !== null) return mochaReportFailures(report).map(withTimeoutFile);
    const failures = withoutTreeEchoes(reportedFailures(output)).map(withTimeoutFile);
    return isTapMochaReporter(output) ? failures.map(withSidesSwapped) : failures;
  },
  reportedFailures: (output) => {
    if (runException(output) !== null) return 1;
    const report = mochaReport(output);
    const stats = recordsOf([report?.["stats"]])[0];
    if (stats !== undefined && typeof stats["failures"] === "number") return stats["failures"];
    // Mocha prints `N failing` only when something failed; `N passing` always.
    return countsIn(output, /^ {2}(\d+) failing$/gm) ?? (isMochaText(output) ? 0 : null);
  },
};

/**
 * Whether the spec text is node-tap's (`tap -R spec`, its tap-mocha-reporter): it names each
 * test file's top test by the file's path (`1) test/inc.js inc works:`), which Mocha never
 * does, and prints tap's own diff, `-` the wanted value and `+` the found one, under Mocha's
 * `+ expected - actual` legend.
 */
function isTapMochaReporter(output: string): boolean {
  return logLines(output).some((line) => TAP_SPEC_TITLE.test(line.trim()));
}

/** A detailed report's title in tap's spec reporter: `1) test/functions/inc.js suite test:`. */
const TAP_SPEC_TITLE = /^\d+\) [\w/-]+(?:\.[\w-]+)*\.[cm]?[jt]sx? \S.*:$/;

/** A failure with expected and received the other way round. */
function withSidesSwapped(failure: Failure): Failure {
  return { ...failure, expected: failure.received, received: failure.expected };
}

/** Mocha's timeout error, which names the test's file at its end: `… it resolves. (test/a.js)`. */
const TIMEOUT_FILE = /^Error: Timeout of \d+ms exceeded\..*\(([^()\s]+\.[cm]?[jt]sx?)\)$/;

/** A timed-out test placed in the file its error names, when no frame said where. */
function withTimeoutFile(failure: Failure): Failure {
  const file = failure.file === null ? TIMEOUT_FILE.exec(failure.message)?.[1] : undefined;
  return file === undefined ? failure : { ...failure, file };
}

/** How Mocha reports a spec file it could not load; no reporter runs then, JSON or not. */
const RUN_EXCEPTION = "Exception during run: ";

/** A file that failed to load: `Exception during run: SyntaxError[ @/path/a.test.js ]: Unexpected token`. */
function runException(output: string): Failure | null {
  const start = output.indexOf(RUN_EXCEPTION);
  if (start < 0) return null;
  const end = output.indexOf("\n", start);
  const line = output.slice(start + RUN_EXCEPTION.length, end < 0 ? output.length : end);
  const at = line.indexOf("[ @");
  const close = line.indexOf(" ]", at);
  const file = at >= 0 && close > at ? line.slice(at + 3, close) : "spec files";
  return loadFailure(file, output.slice(start + RUN_EXCEPTION.length));
}

/** Mocha's summary line (`  3 passing (12ms)`), which it prints even when everything fails. */
function isMochaText(output: string): boolean {
  return output.includes(" passing (") && /^ {2}\d+ passing \(\d+m?s\)$/m.test(output);
}

/** Mocha's JSON document: from its first line to the output's last `}` (logs may come before). */
function mochaReport(output: string): JsonRecord | null {
  const start = output.indexOf(JSON_MARKER);
  if (start < 0) return null;
  return parseRecord(output.slice(start, output.lastIndexOf("}") + 1));
}

/** One failure per entry of the JSON report's `failures`. */
function mochaReportFailures(report: JsonRecord): Failure[] {
  return recordsOf(report["failures"]).map((entry) => {
    const err = recordsOf([entry["err"]])[0] ?? {};
    const test = stringOf(entry["fullTitle"], stringOf(entry["title"]));
    const file = stringOf(entry["file"]) || null;
    const failure = failureFromReport(test, file, stringOf(err["stack"], stringOf(err["message"])));
    if (!("expected" in err) && !("actual" in err)) return failure;
    const printed = typeof err["expected"] === "string" && typeof err["actual"] === "string";
    return {
      ...failure,
      expected: printed ? stringOf(err["expected"]) : literalOf(err, "expected"),
      received: printed ? stringOf(err["actual"]) : literalOf(err, "actual"),
    };
  });
}
