/** A parsed JSON object whose fields are not yet checked: reports, reviews and wire documents are untrusted. */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** Whether a parsed JSON value is an object (not an array, not null). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The objects in `value` when it is an array (other elements skipped), else none. */
export function recordsOf(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}
