import { codePointLength, truncateCodePoints } from "./clean/code-points.js";
import type { Feedback } from "./feedback.js";
import { fitFeedback } from "./fit/fit-feedback.js";
import { byPriority, reviewPointText } from "./review/review-point.js";
import { reviewPointsOf } from "./review/review-points-of.js";

/** Longest first point quoted in the summary. */
const MAX_GIST_LENGTH = 100;

/** Fewest code points a later item is left with; shorter, it says where but not what, so it is counted instead. */
const MIN_ITEM_LENGTH = 60;

/** Summary of a rejection that came without a word. */
export const EMPTY_REVIEW_SUMMARY = "Review rejected without comments";

/**
 * Focused feedback from a reviewer's rejection (SPEC §3, §4), whatever the review's format
 * (see `reviewPointsOf`): credentials redacted before anything is read, one `path:line label:
 * message` item per point, high priority first and the reviewer's order within a priority,
 * summarised as `Review rejected: N points (k blocking): <first point>`, fitted to `maxLength`.
 * Priority is the highest point's.
 */
export function reviewFeedback(text: string, options: { readonly maxLength: number }): Feedback {
  const points = byPriority(reviewPointsOf(text));
  const [first] = points;
  if (first === undefined) {
    return { ...fitFeedback(EMPTY_REVIEW_SUMMARY, [], options.maxLength), priority: "medium" };
  }
  const items = points.map(reviewPointText);
  const blocking = points.filter((point) => point.priority === "high").length;
  const count = `${points.length} ${points.length === 1 ? "point" : "points"}`;
  const gist = truncateCodePoints(items[0] ?? "", MAX_GIST_LENGTH);
  const summary = `Review rejected: ${count}${blocking > 0 ? ` (${blocking} blocking)` : ""}: ${gist}`;
  const kept = itemsWithin(items, options.maxLength - codePointLength(summary));
  return { ...fitFeedback(summary, kept, options.maxLength), priority: first.priority };
}

/**
 * The first item and as many after it as can each keep `MIN_ITEM_LENGTH` code points in
 * `room`, then `+N more points` for the rest: the least urgent points are counted rather than
 * all cut to stubs. `fitFeedback` then cuts what is kept.
 */
function itemsWithin(items: readonly string[], room: number): string[] {
  const [first, ...later] = items;
  if (first === undefined) return [];
  let used = codePointLength(first);
  let count = 0;
  for (const item of later) {
    const rest = later.length - count - 1;
    const more = rest > 0 ? codePointLength(morePoints(rest)) : 0;
    const cost = Math.min(codePointLength(item), MIN_ITEM_LENGTH);
    if (used + cost + more > room) break;
    used += cost;
    count += 1;
  }
  const omitted = later.length - count;
  return [first, ...later.slice(0, count), ...(omitted > 0 ? [morePoints(omitted)] : [])];
}

/** The line that counts the points left out. */
function morePoints(count: number): string {
  return `+${count} more ${count === 1 ? "point" : "points"}`;
}
