/** The first line a diff takes out and the first it puts in after it. */
export interface ChangedPair {
  /** The removed line, without its mark. */
  readonly removed: string;
  /** The added line, without its mark. */
  readonly added: string;
  /** How many lines below the removed one the added one is. */
  readonly gap: number;
}

/**
 * The first of a diff's `lines` that `minus` marks and the first after it that `plus` marks,
 * indentation kept — where two long printed values start to differ; null when either is
 * missing. Runners mark lines `-`/`+` (unified diffs) or `- `/`+ ` (Python's ndiff).
 */
export function firstChangedPair(
  lines: readonly string[],
  minus = "-",
  plus = "+",
): ChangedPair | null {
  const at = lines.findIndex((line) => line.startsWith(minus));
  const after = lines.findIndex((line, index) => at >= 0 && index > at && line.startsWith(plus));
  const removed = lines[at];
  const added = lines[after];
  if (at < 0 || after < 0 || removed === undefined || added === undefined) return null;
  return { removed: removed.slice(minus.length), added: added.slice(plus.length), gap: after - at };
}
