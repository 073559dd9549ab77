import { codePointLength, truncateCodePoints } from "./code-points.js";

/** Below this many code points a later item says nothing useful; it is dropped instead of cut further. */
const MIN_LATER_ITEM_LENGTH = 16;

/** Summary and items that together fit a length cap. */
export interface FittedFeedback {
  readonly summary: string;
  readonly actionableItems: string[];
}

/**
 * `summary` and `items` cut to `codePointLength(summary) + Σ codePointLength(item) <= maxLength`
 * (SPEC §3) for any `maxLength >= 1`. What matters most survives: the summary (at least two thirds
 * of the cap when both cannot fit) and the first item complete, then the later items shortened
 * evenly, then dropped from the end. Cuts happen on code points, end with `…` (which counts),
 * and an item that would be nothing but the marker is dropped.
 */
export function fitFeedback(
  summary: string,
  items: readonly string[],
  maxLength: number,
): FittedFeedback {
  const cap = Math.max(1, Math.floor(Number.isFinite(maxLength) ? maxLength : 1));
  const candidates = items.filter((item) => item !== "");
  const lengths = candidates.map(codePointLength);
  const summaryLength = codePointLength(summary);
  if (summaryLength + lengths.reduce((sum, length) => sum + length, 0) <= cap) {
    return { summary, actionableItems: candidates };
  }
  const [first, ...later] = candidates;
  const firstLength = lengths[0] ?? 0;
  // The summary carries the first failure's gist, so when both cannot fit it keeps two thirds.
  const summaryBudget = Math.min(
    summaryLength,
    Math.max(cap - firstLength, Math.ceil((cap * 2) / 3)),
  );
  const fittedSummary = truncateCodePoints(summary, summaryBudget);
  const remaining = cap - codePointLength(fittedSummary);
  if (first === undefined) return { summary: fittedSummary, actionableItems: [] };
  const fittedFirst = truncateCodePoints(first, remaining);
  if (fittedFirst !== first && codePointLength(fittedFirst) < 2) {
    return { summary: fittedSummary, actionableItems: [] };
  }
  const rest = shareBudget(later, lengths.slice(1), remaining - codePointLength(fittedFirst));
  return { summary: fittedSummary, actionableItems: [fittedFirst, ...rest] };
}

/**
 * As many leading items as can each keep `MIN_LATER_ITEM_LENGTH` code points, all cut to one
 * common limit (the largest that fits `budget`), so long items shrink before short ones do.
 */
function shareBudget(
  items: readonly string[],
  lengths: readonly number[],
  budget: number,
): string[] {
  let count = 0;
  let floorTotal = 0;
  while (count < items.length) {
    floorTotal += Math.min(lengths[count] ?? 0, MIN_LATER_ITEM_LENGTH);
    if (floorTotal > budget) break;
    count += 1;
  }
  const kept = items.slice(0, count);
  const limit = commonLimit(lengths.slice(0, count), budget);
  return kept.map((item) => truncateCodePoints(item, limit));
}

/** The largest `limit` with `Σ min(length, limit) <= budget` (Infinity when everything fits). */
function commonLimit(lengths: readonly number[], budget: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let used = 0;
  for (const [index, length] of sorted.entries()) {
    const remaining = sorted.length - index;
    if (used + length * remaining > budget) return Math.floor((budget - used) / remaining);
    used += length;
  }
  return Number.POSITIVE_INFINITY;
}
