import type { Priority } from "../feedback.js";
import { fieldAt, lineOf, textOf } from "./json-fields.js";
import { isRecord, recordsOf, type JsonRecord } from "../../json-record.js";
import { toolMessage, type ReviewPoint } from "./review-point.js";

/** rdjson severities, by name as `protojson` writes them and by enum number. */
const PRIORITY_OF_SEVERITY: ReadonlyMap<unknown, Priority> = new Map<unknown, Priority>([
  ["ERROR", "high"],
  ["WARNING", "medium"],
  ["INFO", "low"],
  [1, "high"],
  [2, "medium"],
  [3, "low"],
]);

/** A reviewdog Diagnostic: a message at a location. */
function isDiagnostic(value: unknown): value is JsonRecord {
  return isRecord(value) && textOf(value["message"]) !== null && isRecord(value["location"]);
}

/** One diagnostic as a point; an unknown severity falls back to the result's, then medium. */
function diagnosticPoint(diagnostic: JsonRecord, severity: unknown): ReviewPoint {
  const ruleId = textOf(fieldAt(diagnostic, "code", "value"));
  return {
    path: textOf(fieldAt(diagnostic, "location", "path")),
    line: lineOf(fieldAt(diagnostic, "location", "range", "start", "line")),
    priority:
      PRIORITY_OF_SEVERITY.get(diagnostic["severity"]) ??
      PRIORITY_OF_SEVERITY.get(severity) ??
      "medium",
    message: toolMessage(textOf(diagnostic["message"]) ?? "", ruleId),
    label: ruleId,
  };
}

/**
 * The points of reviewdog's Diagnostic Format (null when `documents` are not that): one
 * rdjson `DiagnosticResult` (`{diagnostics: […]}`), or rdjsonl, one Diagnostic per document.
 * ERROR is high, WARNING medium, INFO low.
 */
export function rdjsonPoints(documents: readonly unknown[]): ReviewPoint[] | null {
  const [first] = documents;
  if (documents.length === 1 && Array.isArray(fieldAt(first, "diagnostics"))) {
    const severity = fieldAt(first, "severity");
    return recordsOf(fieldAt(first, "diagnostics"))
      .filter(isDiagnostic)
      .map((diagnostic) => diagnosticPoint(diagnostic, severity));
  }
  if (documents.length === 0 || !documents.every(isDiagnostic)) return null;
  return documents.filter(isDiagnostic).map((diagnostic) => diagnosticPoint(diagnostic, undefined));
}
