import type { Priority } from "../feedback.js";
import { field, fieldAt, lineOf, textOf } from "./json-fields.js";
import { toolMessage, type ReviewPoint } from "./review-point.js";
import { levelOf } from "./severity.js";

/** Keys linters' JSON reports name a finding's file with (ruff, pylint, flake8-json, Semgrep, ESLint, ShellCheck). */
const FILE_KEYS = ["filename", "filePath", "path", "file"] as const;
/** Keys they name its rule with. */
const RULE_KEYS = ["code", "ruleId", "rule", "symbol", "message-id", "check_id"] as const;
/** Where they put its line: ruff's `location.row`, Semgrep's `start.line`, else `line`. */
const LINE_PATHS: readonly (readonly string[])[] = [
  ["location", "row"],
  ["location", "line"],
  ["start", "line"],
  ["line"],
];
/** pylint's message types, by what each asks for. */
const PYLINT_TYPES: ReadonlyMap<string, Priority> = new Map<string, Priority>([
  ["fatal", "high"],
  ["error", "high"],
  ["warning", "medium"],
  ["convention", "low"],
  ["refactor", "low"],
  ["info", "low"],
]);

/** The first string one of `keys` holds in `value`, else null. */
function firstText(value: unknown, keys: readonly string[]): string | null {
  for (const key of keys) {
    const text = textOf(field(value, key));
    if (text !== null) return text;
  }
  return null;
}

/**
 * The level a finding's report gives it: ESLint's numeric `severity` (2 error, 1 warning), a
 * level word (`severity: "ERROR"`, `level`, pylint's `type`); medium when it names none, as for
 * flake8 and ruff, whose codes are no level.
 */
function findingLevel(finding: unknown): Priority {
  const severity = field(finding, "severity");
  if (severity === 2) return "high";
  if (severity === 1) return "medium";
  const type = textOf(field(finding, "type"))?.toLowerCase();
  const pylint = type === undefined ? undefined : PYLINT_TYPES.get(type);
  if (pylint !== undefined) return pylint;
  const word =
    firstText(finding, ["severity", "level"]) ?? textOf(fieldAt(finding, "extra", "severity"));
  return (word === null ? null : levelOf(word)) ?? "medium";
}

/** ShellCheck's numeric `code` (2207) as its rules are named (`SC2207`); no other linter's code is a number. */
function shellCheckCode(code: unknown): string | null {
  return typeof code === "number" && Number.isSafeInteger(code) && code > 0 ? `SC${code}` : null;
}

/** One finding as a point, with the file its report entry names when the finding names none; null when it has no message or place. */
function findingPoint(finding: unknown, file: string | null): ReviewPoint | null {
  const message = firstText(finding, ["message"]) ?? textOf(fieldAt(finding, "extra", "message"));
  const path = firstText(finding, FILE_KEYS) ?? file;
  const line = LINE_PATHS.map((keys) => lineOf(fieldAt(finding, ...keys))).find(
    (found) => found !== null,
  );
  if (message === null || path === null || line === undefined) return null;
  const rule = firstText(finding, RULE_KEYS) ?? shellCheckCode(field(finding, "code"));
  return {
    path,
    line,
    priority: findingLevel(finding),
    message: toolMessage(message, rule),
    label: rule,
  };
}

/** The points of one report entry: ESLint's `{filePath, messages: [...]}` or a finding itself. */
function entryPoints(entry: unknown): (ReviewPoint | null)[] {
  const messages = field(entry, "messages");
  if (!Array.isArray(messages)) return [findingPoint(entry, null)];
  const file = textOf(field(entry, "filePath"));
  return messages.map((message: unknown) => findingPoint(message, file));
}

/**
 * The points of a linter's JSON report — an array of findings, each with a message, a file and
 * a line (ruff's and pylint's `--output-format json`, flake8-json, Semgrep's `results`,
 * ShellCheck's `-f json` and the `comments` of its `-f json1`), or
 * ESLint's `--format json` (an array of files with their `messages`) — each at its file and
 * line with its rule as label and the level the report gives. Null when the document is none:
 * every finding must have a message and a place, else it is another format.
 */
export function lintJsonPoints(document: unknown): ReviewPoint[] | null {
  const entries = Array.isArray(document)
    ? document
    : (field(document, "results") ?? field(document, "comments"));
  if (!Array.isArray(entries) || entries.length === 0) return null;
  const points = entries.flatMap(entryPoints);
  if (points.some((point) => point === null)) return null;
  return points.filter((point): point is ReviewPoint => point !== null);
}
