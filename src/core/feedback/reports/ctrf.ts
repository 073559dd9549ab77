import { failureFromReport } from "../extractor/general-extractor.js";
import type { Failure, TestOutputParser } from "../feedback.js";
import { recordsOf, type JsonRecord } from "../../json-record.js";
import { asRecord, parseRecord, stringOf } from "./json-report.js";

/**
 * The Common Test Report Format (CTRF, `{"results": {"tool", "summary", "tests"}}`), which
 * reporters for Jest, Mocha, Playwright, Cypress, pytest, Go and others write: one failure per
 * test whose status is `failed`, named by its suite path and name joined by ` > `, at its
 * `filePath` and `line`, its values and first user frame read from `message` and `trace`.
 * Skipped, pending and other tests are never failures. The count is the summary's `failed`.
 */
export const ctrfParser: TestOutputParser = {
  name: "ctrf",
  detect: (output) => ctrfResults(output) !== null,
  parse: (output) => recordsOf(ctrfResults(output)?.["tests"]).flatMap(failedTest),
  reportedFailures: (output) => {
    const failed = asRecord(ctrfResults(output)?.["summary"])?.["failed"];
    return typeof failed === "number" && Number.isSafeInteger(failed) ? failed : null;
  },
};

/** The `results` object of a CTRF document, or null when the text is not one. */
function ctrfResults(output: string): JsonRecord | null {
  const text = output.trim();
  if (!text.startsWith("{") || !text.includes('"results"')) return null;
  const results = asRecord(parseRecord(text)?.["results"]);
  return results !== null && Array.isArray(results["tests"]) && asRecord(results["tool"]) !== null
    ? results
    : null;
}

/** A failed test as a failure; nothing for one that passed, was skipped or is pending. */
function failedTest(test: JsonRecord): Failure[] {
  if (test["status"] !== "failed") return [];
  const suite = Array.isArray(test["suite"])
    ? test["suite"].filter((part): part is string => typeof part === "string")
    : [];
  const name = [...suite, stringOf(test["name"])].filter((part) => part !== "").join(" > ");
  const file = stringOf(test["filePath"]) || null;
  const report = [stringOf(test["message"]), stringOf(test["trace"])].join("\n");
  const failure = failureFromReport(name, file, report);
  const line = test["line"];
  const declared = typeof line === "number" && Number.isSafeInteger(line) && line > 0 ? line : null;
  // The report's own place wins only when the message named none in the test's file.
  const located = failure.file !== null && failure.line !== null;
  return [
    located ? failure : { ...failure, file: failure.file ?? file, line: failure.line ?? declared },
  ];
}
