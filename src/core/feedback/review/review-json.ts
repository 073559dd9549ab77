/** Longest JSON review read whole; a bigger document is treated as text, whose lines are cut. */
const MAX_JSON_LENGTH = 32 * 1024 * 1024;

/**
 * The JSON documents a review text holds: one document, or one per non-blank line (JSON
 * Lines, as rdjsonl is); null when the text is not JSON, so it is read as plain text.
 * `JSON.parse` is linear and iterative, so hostile nesting costs no stack.
 */
export function reviewJsonDocuments(text: string): unknown[] | null {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("[")) || trimmed.length > MAX_JSON_LENGTH) {
    return null;
  }
  try {
    return [JSON.parse(trimmed)];
  } catch {
    // Not one document; perhaps one per line.
  }
  try {
    return trimmed
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line): unknown => JSON.parse(line));
  } catch {
    return null;
  }
}
