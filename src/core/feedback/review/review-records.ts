import { firstPath, firstReference } from "./path-reference.js";

/** One `name: value` field of a record line or of front matter, the name lower case. */
export type RecordField = readonly [name: string, value: string];

/**
 * Field names exporters and review bots write about a comment rather than in it: where it is,
 * who wrote it, when, and its bookkeeping. `status`, `severity` and `type` are not here: a
 * `Status: Approved` line is a verdict and `Severity: high — …` a label.
 */
const RECORD_NAMES: ReadonlySet<string> = new Set([
  "file",
  "path",
  "filename",
  "line",
  "lines",
  "location",
  "state",
  "created",
  "created at",
  "updated",
  "updated at",
  "generated",
  "author",
  "reviewer",
  "actionable",
  "has suggestion",
  "url",
  "comment id",
  "id",
  "date",
  "commit",
  "provider",
  "round",
  "pr",
]);
/** A field: a short name, a colon, a value of at most a few words. */
const FIELD = /^([a-z][\w -]{0,30}?)\s*:\s*(\S.{0,120})?$/i;

/** A YAML scalar without its quotes: `"108"` → `108`. */
function unquoted(value: string): string {
  const quote = value.charAt(0);
  return (quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)
    ? value.slice(1, -1)
    : value;
}

/** The fields of `text` when every `|`-separated part is one, else null. */
function fieldsOf(text: string, known: boolean): RecordField[] | null {
  const fields: RecordField[] = [];
  for (const part of text.split(" | ")) {
    const match = FIELD.exec(part.trim());
    const name = match?.[1]?.toLowerCase().replaceAll("_", " ");
    if (match === null || name === undefined) return null;
    if (known && !RECORD_NAMES.has(name)) return null;
    fields.push([name, unquoted((match[2] ?? "").trim())]);
  }
  return fields;
}

/**
 * The fields of a line that only records facts about a comment (`State: null | Created:
 * 2025-12-22`, `Actionable: Yes`, `File: src/a.ts`), not a finding; null for any other line.
 * Only the names exporters use count, so `Fix: use const` stays a finding.
 */
export function recordLineFields(text: string): RecordField[] | null {
  return text.includes(":") ? fieldsOf(text, true) : null;
}

/**
 * The fields of the YAML front matter a review file opens with (`---`, `name: value` lines,
 * `---`) and how many lines it takes, or null when the text opens with none.
 */
export function frontMatter(
  lines: readonly string[],
): { fields: RecordField[]; lines: number } | null {
  if (lines[0]?.trim() !== "---") return null;
  const fields: RecordField[] = [];
  for (let index = 1; index < Math.min(lines.length, 60); index += 1) {
    const line = (lines[index] ?? "").trim();
    if (line === "---") return index > 1 ? { fields, lines: index + 1 } : null;
    const parsed = fieldsOf(line, false);
    if (parsed === null) return null;
    fields.push(...parsed);
  }
  return null;
}

/**
 * The place record fields give: a `file`/`path`/`location` value (`src/a.ts`, `src/a.ts:12`)
 * and a `line`/`lines` number (a range's first line); null parts when they name none.
 */
export function recordPlace(fields: readonly RecordField[]): {
  path: string | null;
  line: number | null;
} {
  let path: string | null = null;
  let line: number | null = null;
  for (const [name, value] of fields) {
    if (name === "file" || name === "path" || name === "filename" || name === "location") {
      const reference = firstReference(value);
      path ??= reference?.path ?? firstPath(value);
      line ??= reference?.line ?? null;
    }
    if (name === "line" || name === "lines") {
      const number = Number(/^\d{1,9}/.exec(value)?.[0]);
      line ??= number >= 1 ? number : null;
    }
  }
  return { path, line: path === null ? null : line };
}
