import type { Failure } from "../feedback.js";
import { failureFromReport } from "../extractor/general-extractor.js";
import { asRecord, literalOf, stringOf } from "./json-report.js";
import { recordsOf, type JsonRecord } from "../../json-record.js";
import { loadFailure } from "../parsers/load-failure.js";

/** How Jest joins a test's suite path, and so how Jest users read a full test name. */
export const JEST_NAME_SEPARATOR = " › ";

/**
 * The failures in a Jest-format JSON report (Jest `--json`, Vitest `--reporter=json`): one per
 * failed assertion result, named by its suite path joined with `separator`, with file, line and
 * values read from its failure message. Where the report kept the matcher's values
 * (`failureDetails[].matcherResult`), expected and received are those values as JavaScript
 * literals, so `123` and `"123"` differ (snapshot matchers keep serialized text there, so their
 * values come from the printed diff). A file that failed without failing tests (it did not
 * compile or load) is one failure named by the file, carrying the file's error.
 */
export function jestReportFailures(report: JsonRecord, separator: string): Failure[] {
  const failures: Failure[] = [];
  for (const file of recordsOf(report["testResults"])) {
    const path = stringOf(file["name"]) || null;
    const failed = recordsOf(file["assertionResults"]).filter(
      (result) => result["status"] === "failed",
    );
    for (const result of failed) failures.push(assertionFailure(result, path, separator));
    const message = stringOf(file["message"]) || stringOf(file["failureMessage"]);
    if (failed.length === 0 && file["status"] === "failed" && message !== "") {
      failures.push(loadFailure(path ?? "test file", message));
    }
  }
  return failures;
}

/**
 * How many failures a Jest-format JSON report counts: failed assertion results, plus files that
 * failed without one (they did not compile or load), as `jestReportFailures` reads them.
 */
export function jestReportCount(report: JsonRecord): number {
  let count = 0;
  for (const file of recordsOf(report["testResults"])) {
    const failed = recordsOf(file["assertionResults"]).filter(
      (result) => result["status"] === "failed",
    ).length;
    count += failed === 0 && file["status"] === "failed" ? 1 : failed;
  }
  return count;
}

/** One failed assertion result. */
function assertionFailure(result: JsonRecord, path: string | null, separator: string): Failure {
  const ancestors = Array.isArray(result["ancestorTitles"])
    ? result["ancestorTitles"].filter((title) => typeof title === "string")
    : [];
  const test = [...ancestors, stringOf(result["title"])].join(separator);
  const messages = Array.isArray(result["failureMessages"]) ? result["failureMessages"] : [];
  const failure = failureFromReport(test, path, messages.map((text) => stringOf(text)).join("\n"));
  const matcher = recordsOf(result["failureDetails"])
    .map((detail) => asRecord(detail["matcherResult"]))
    .find(
      (found) =>
        found !== null &&
        ("expected" in found || "actual" in found) &&
        !stringOf(found["name"]).includes("Snapshot"),
    );
  if (matcher === undefined || matcher === null) return failure;
  return {
    ...failure,
    expected: literalOf(matcher, "expected"),
    received: literalOf(matcher, "actual"),
  };
}
