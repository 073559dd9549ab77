import { isRecord, type JsonRecord } from "../../json-record.js";

/**
 * The JSON object that starts at the first line beginning with `marker` and ends with that line,
 * or null. Reporters print their document on one line, often among other lines (Jest's
 * `--json` writes its text report to stderr beside it); a document that does not parse is none.
 */
export function jsonLineStartingWith(output: string, marker: string): JsonRecord | null {
  const start = output.startsWith(marker) ? 0 : output.indexOf(`\n${marker}`) + 1;
  if (start === 0 && !output.startsWith(marker)) return null;
  const end = output.indexOf("\n", start);
  return parseRecord(output.slice(start, end < 0 ? output.length : end));
}

/** `text` parsed as a JSON object, or null when it is not one. */
export function parseRecord(text: string): JsonRecord | null {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/** `value` when it is a JSON object, else null. */
export function asRecord(value: unknown): JsonRecord | null {
  return isRecord(value) ? value : null;
}

/** `value` when it is a string, else `fallback`. */
export function stringOf(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}

/**
 * A value a report kept with its type, as a JavaScript literal: strings quoted (`"123"`),
 * numbers bare (`123`), a key the report dropped (JSON has no `undefined`) as `undefined`,
 * objects as compact JSON. So `123` and `"123"` stay distinguishable after extraction.
 */
export function literalOf(record: JsonRecord, key: string): string {
  return key in record ? (JSON.stringify(record[key]) ?? "undefined") : "undefined";
}
