/** Most lines one multi-line value, diff or title is read from; the rest is not a gist. */
export const MAX_VALUE_LINES = 30;

/** A line that starts a new report and so ends any value, diff or title being read. */
export const REPORT_START =
  /^(?:FAIL\s|●\s|not ok\b|ok \d|--- (?:FAIL|PASS|SKIP):|---- |[×✓✔✕✖✗]\s|___)/;

/** Columns of leading whitespace of a line. */
export function indentOf(raw: string): number {
  return raw.length - raw.trimStart().length;
}

/** Lines below `index` indented deeper than `indent` (plus a closing bracket at `indent`). */
export function indentedBelow(
  lines: readonly string[],
  index: number,
  indent: number,
  closingBracket = false,
): { lines: string[]; next: number } {
  const found: string[] = [];
  let cursor = index + 1;
  while (cursor < lines.length && found.length < MAX_VALUE_LINES) {
    const raw = lines[cursor] ?? "";
    const trimmed = raw.trim();
    const depth = indentOf(raw);
    if (trimmed !== "" && depth > indent) {
      found.push(trimmed);
    } else {
      if (closingBracket && trimmed !== "" && depth === indent && /^[\]}]/.test(trimmed)) {
        found.push(trimmed);
        cursor += 1;
      }
      break;
    }
    cursor += 1;
  }
  return { lines: found, next: cursor };
}

/**
 * The index past a YAML block scalar that starts below `index` (blank lines included):
 * node-tap's `source:` quotes the test's code around the failing line, never a fact.
 */
export function skipBlock(lines: readonly string[], index: number, indent: number): number {
  let cursor = index + 1;
  while (cursor < lines.length) {
    const raw = lines[cursor] ?? "";
    if (raw.trim() !== "" && indentOf(raw) <= indent) break;
    cursor += 1;
  }
  return cursor;
}

/** The first non-blank line indented deeper than `indent` below `index` (a YAML block scalar's first line). */
export function firstLineBelow(lines: readonly string[], index: number, indent: number): string {
  for (
    let cursor = index + 1;
    cursor < lines.length && cursor <= index + MAX_VALUE_LINES;
    cursor += 1
  ) {
    const raw = lines[cursor] ?? "";
    if (raw.trim() === "") continue;
    return indentOf(raw) > indent ? raw.trim() : "";
  }
  return "";
}

/** The index of the first non-blank line at or after `index` (the end when there is none). */
export function nextNonBlank(lines: readonly string[], index: number): number {
  let cursor = index;
  while ((lines[cursor] ?? "x").trim() === "" && cursor < lines.length) cursor += 1;
  return cursor;
}
