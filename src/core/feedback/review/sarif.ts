import type { Priority } from "../feedback.js";
import { elementAt, field, fieldAt, lineOf, textOf } from "./json-fields.js";
import { isRecord, recordsOf, type JsonRecord } from "../../json-record.js";
import { pointMessage, toolMessage, type ReviewPoint } from "./review-point.js";

const PRIORITY_OF_LEVEL: ReadonlyMap<unknown, Priority> = new Map<unknown, Priority>([
  ["error", "high"],
  ["warning", "medium"],
  ["note", "low"],
  ["none", "low"],
]);
/** Result kinds that report a problem; `pass`, `notApplicable` and `informational` ask for nothing. */
const PROBLEM_KINDS: ReadonlySet<unknown> = new Set([undefined, "fail", "review", "open"]);

/** A SARIF log: `runs` is the one property every SARIF 2.1.0 log has and no other format here does. */
function isSarifLog(document: unknown): boolean {
  return Array.isArray(field(document, "runs")) && field(document, "diagnostics") === undefined;
}

/** The rule a result points at, by `ruleIndex` (or `rule.index`) into the run's driver rules, else by id. */
function ruleOf(
  run: JsonRecord,
  result: JsonRecord,
  ruleId: string | null,
): JsonRecord | undefined {
  const rules = fieldAt(run, "tool", "driver", "rules");
  const byIndex = elementAt(rules, result["ruleIndex"] ?? fieldAt(result, "rule", "index"));
  if (isRecord(byIndex)) return byIndex;
  return recordsOf(rules).find((rule) => ruleId !== null && rule["id"] === ruleId);
}

/** The result's text: `message.text`, else its `markdown`, else the rule's message string with `{0}` arguments filled. */
function messageOf(result: JsonRecord, rule: JsonRecord | undefined): string | null {
  const message = result["message"];
  const direct = textOf(field(message, "text")) ?? textOf(field(message, "markdown"));
  if (direct !== null) return direct;
  const id = textOf(field(message, "id"));
  const template = id === null ? null : textOf(fieldAt(rule, "messageStrings", id, "text"));
  const args = field(message, "arguments");
  return (
    template?.replace(/\{(\d{1,3})\}/g, (whole, index: string) => {
      const value: unknown = Array.isArray(args) ? args[Number(index)] : undefined;
      return typeof value === "string" ? value : whole;
    }) ?? null
  );
}

/** A URI's percent escapes decoded (`pathToFileURL` writes a space as `%20`); kept as it is when they are malformed. */
function decodedUri(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/**
 * The path a location's artifact names, by `uri` or by `index` into the run's artifacts:
 * `file://host` dropped, percent escapes decoded, and a Windows drive's leading `/` too.
 */
function pathOf(run: JsonRecord, physical: unknown): string | null {
  const artifact = field(physical, "artifactLocation");
  const uri =
    textOf(field(artifact, "uri")) ??
    textOf(fieldAt(elementAt(run["artifacts"], field(artifact, "index")), "location", "uri"));
  if (uri === null) return null;
  const path = decodedUri(uri.replace(/^file:\/\/[^/]*/i, ""));
  return /^\/[a-z]:\//i.test(path) ? path.slice(1) : path;
}

/**
 * Whether a result was suppressed or fixed since the baseline: neither asks for a change. A
 * suppression counts unless its `status` is `underReview` or `rejected` (SARIF §3.35.3); ESLint
 * writes `suppressions: []` for the unsuppressed results of a file that has suppressed ones.
 */
function isSettled(result: JsonRecord): boolean {
  const suppressed = recordsOf(result["suppressions"]).some(
    (suppression) => (suppression["status"] ?? "accepted") === "accepted",
  );
  return suppressed || result["baselineState"] === "absent";
}

/** One result as a point; a missing level is the rule's default, else SARIF's default `warning`. */
function resultPoint(run: JsonRecord, result: JsonRecord): ReviewPoint | null {
  const ruleId = textOf(result["ruleId"]) ?? textOf(fieldAt(result, "rule", "id"));
  const rule = ruleOf(run, result, ruleId);
  const message = messageOf(result, rule) ?? ruleId;
  if (message === null) return null;
  const level = result["level"] ?? fieldAt(rule, "defaultConfiguration", "level") ?? "warning";
  const physical = fieldAt(recordsOf(result["locations"])[0], "physicalLocation");
  return {
    path: pathOf(run, physical),
    line: lineOf(fieldAt(physical, "region", "startLine")),
    priority: PRIORITY_OF_LEVEL.get(level) ?? "medium",
    message: toolMessage(message, ruleId),
    label: ruleId,
  };
}

/**
 * An error-level tool notification as a high point: ESLint reports a file it cannot parse as a
 * `toolConfigurationNotification`, not a result, and that file needs fixing first.
 */
function notificationPoint(run: JsonRecord, notification: JsonRecord): ReviewPoint | null {
  const message = textOf(fieldAt(notification, "message", "text"));
  if (notification["level"] !== "error" || message === null) return null;
  const physical = fieldAt(recordsOf(notification["locations"])[0], "physicalLocation");
  return {
    path: pathOf(run, physical),
    line: lineOf(fieldAt(physical, "region", "startLine")),
    priority: "high",
    message: pointMessage(message),
    label: null,
  };
}

/** A run's error-level notifications, from every invocation's execution and configuration lists. */
function notificationPoints(run: JsonRecord): ReviewPoint[] {
  return recordsOf(run["invocations"])
    .flatMap((invocation) => [
      ...recordsOf(invocation["toolExecutionNotifications"]),
      ...recordsOf(invocation["toolConfigurationNotifications"]),
    ])
    .map((notification) => notificationPoint(run, notification))
    .filter((point) => point !== null);
}

/**
 * The points of a SARIF 2.1.0 log (null when `document` is not one): every run's error-level
 * tool notifications (a file the tool could not read), then its problem results, not
 * suppressed, at their first location; error is high, warning medium, note low.
 */
export function sarifPoints(document: unknown): ReviewPoint[] | null {
  if (!isSarifLog(document)) return null;
  return recordsOf(field(document, "runs")).flatMap((run) => [
    ...notificationPoints(run),
    ...recordsOf(run["results"])
      .filter((result) => PROBLEM_KINDS.has(result["kind"]) && !isSettled(result))
      .map((result) => resultPoint(run, result))
      .filter((point) => point !== null),
  ]);
}
