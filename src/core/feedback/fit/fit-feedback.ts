import { codePointLength, truncateCodePoints } from "../clean/code-points.js";

/** Below this many code points a later item says nothing useful; it is dropped instead of cut further. */
const MIN_LATER_ITEM_LENGTH = 16;
/** How many forms ahead of the later items the first item is upgraded: it is the one shown in full. */
const FIRST_ITEM_LEAD = 2;

/** Summary and items that together fit a length cap. */
export interface FittedFeedback {
  readonly summary: string;
  readonly actionableItems: string[];
}

/** An item's renderings, from the briefest to the whole; fitting picks one of them. */
export type ItemForms = readonly string[];

/**
 * `summary` and `items` cut to `codePointLength(summary) + Σ codePointLength(item) <= maxLength`
 * (SPEC §3) for any `maxLength >= 1`. An item is one string or its forms (`ItemForms`); when all
 * the whole forms fit, they are kept. Otherwise what matters most survives: the summary (at
 * least two thirds of the cap when both cannot fit), then every item in its briefest form, then
 * upgrades a form at a time, earlier items first at each step, the first item `FIRST_ITEM_LEAD`
 * forms ahead. When even the briefest forms cannot all fit, the first item keeps the fullest
 * form that fits and the later ones are shortened evenly, then dropped from the end. Cuts happen
 * on code points, end with `…` (which counts), and an item that would be nothing but the marker
 * is dropped.
 */
export function fitFeedback(
  summary: string,
  items: readonly (string | ItemForms)[],
  maxLength: number,
): FittedFeedback {
  const cap = Math.max(1, Math.floor(Number.isFinite(maxLength) ? maxLength : 1));
  const candidates = items
    .map((item) => (typeof item === "string" ? [item] : item).filter((form) => form !== ""))
    .filter((forms) => forms.length > 0);
  const wholes = candidates.map((forms) => forms.at(-1) ?? "");
  const summaryLength = codePointLength(summary);
  if (summaryLength + totalLength(wholes) <= cap) {
    return { summary, actionableItems: wholes };
  }
  const [first, ...later] = candidates;
  const firstWhole = wholes[0] ?? "";
  // The summary carries the first failure's gist, so when both cannot fit it keeps two thirds.
  const summaryBudget = Math.min(
    summaryLength,
    Math.max(cap - codePointLength(firstWhole), Math.ceil((cap * 2) / 3)),
  );
  const fittedSummary = truncateCodePoints(summary, summaryBudget);
  const remaining = cap - codePointLength(fittedSummary);
  if (first === undefined) return { summary: fittedSummary, actionableItems: [] };
  if (totalLength(candidates.map((forms) => forms[0] ?? "")) <= remaining) {
    return { summary: fittedSummary, actionableItems: upgraded(candidates, remaining) };
  }
  const fittedFirst =
    first.findLast((form) => codePointLength(form) <= remaining) ??
    truncateCodePoints(firstWhole, remaining);
  if (codePointLength(fittedFirst) < 2 && fittedFirst !== firstWhole) {
    return { summary: fittedSummary, actionableItems: [] };
  }
  const briefest = later.map((forms) => forms[0] ?? "");
  const rest = shareBudget(
    briefest,
    briefest.map(codePointLength),
    remaining - codePointLength(fittedFirst),
  );
  return { summary: fittedSummary, actionableItems: [fittedFirst, ...rest] };
}

/**
 * One form of each item within `budget`, which their briefest forms fit: every item is named
 * before any gets more detail, then all are upgraded level by level, each to the fullest form up
 * to that level the budget still allows.
 */
function upgraded(items: readonly ItemForms[], budget: number): string[] {
  const chosen = items.map(() => 0);
  let left = budget - totalLength(items.map((forms) => forms[0] ?? ""));
  const levels = Math.max(0, ...items.map((forms) => forms.length)) + FIRST_ITEM_LEAD;
  for (let level = 1; level < levels; level += 1) {
    items.forEach((forms, index) => {
      const target = Math.min(forms.length - 1, index === 0 ? level + FIRST_ITEM_LEAD : level);
      const current = chosen[index] ?? 0;
      for (let next = target; next > current; next -= 1) {
        const cost = codePointLength(forms[next] ?? "") - codePointLength(forms[current] ?? "");
        if (cost > left) continue;
        chosen[index] = next;
        left -= cost;
        return;
      }
    });
  }
  return items.map((forms, index) => forms[chosen[index] ?? 0] ?? "");
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

/** Code points in all items together. */
function totalLength(items: readonly string[]): number {
  return items.reduce((sum, item) => sum + codePointLength(item), 0);
}
