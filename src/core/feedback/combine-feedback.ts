import { codePointLength, truncateCodePoints } from "./clean/code-points.js";
import type { Feedback, Priority } from "./feedback.js";
import { fitFeedback } from "./fit/fit-feedback.js";

const PRIORITY_RANK: Readonly<Record<Priority, number>> = { low: 0, medium: 1, high: 2 };
const SUMMARY_SEPARATOR = "; ";
/** Times one side is fitted again before its items are cut as plain text. */
const MAX_REFITS = 4;

/** One side's feedback fitted to a cap, so a combined feedback can ask it again for less room. */
export type FitFeedback = (maxLength: number) => Feedback;

/**
 * Feedback for an attempt whose tests failed and whose review rejected (SPEC §3): test items
 * first, then review items, a summary naming both, the higher priority, within `maxLength`.
 * When the items do not all fit, the review keeps at least a third of the room left after the
 * summary (or what the tests leave over), so the reviewer's first point still reaches the next
 * attempt; each side is then fitted again, by its own rules, to the room it gets.
 */
export function combineFeedback(
  test: FitFeedback,
  review: FitFeedback,
  maxLength: number,
): Feedback {
  const cap = Math.max(1, Math.floor(Number.isFinite(maxLength) ? maxLength : 1));
  const tests = test(cap);
  const reviews = review(cap);
  const summary = truncateCodePoints(combinedSummary(tests.summary, reviews.summary, cap), cap);
  const room = cap - codePointLength(summary);
  const testLength = totalLength(tests.actionableItems);
  const reviewLength = totalLength(reviews.actionableItems);
  const reviewShare = Math.min(reviewLength, Math.max(Math.ceil(room / 3), room - testLength));
  const testItems = itemsWithin(test, tests, room - reviewShare);
  const reviewItems = itemsWithin(review, reviews, room - totalLength(testItems));
  return {
    summary,
    actionableItems: [...testItems, ...reviewItems],
    priority: higher(tests.priority, reviews.priority),
  };
}

/**
 * One side's items within `budget`: as fitted for the whole cap when they fit, else fitted
 * again to a cap that leaves `budget` after that side's own summary, smaller again while they
 * overshoot; cut as plain items only if even that fails (a summary shortened at a tiny cap
 * leaves its items more room).
 */
function itemsWithin(fit: FitFeedback, whole: Feedback, budget: number): string[] {
  if (budget < 1) return [];
  if (totalLength(whole.actionableItems) <= budget) return [...whole.actionableItems];
  let cap = budget + codePointLength(whole.summary);
  let refitted = fit(cap).actionableItems;
  // A side's summary may say less at a smaller cap, leaving its items more than `budget`: the
  // cap shrinks by what they overshoot.
  for (let tries = 1; tries < MAX_REFITS && totalLength(refitted) > budget; tries += 1) {
    cap -= totalLength(refitted) - budget;
    if (cap < 1) break;
    refitted = fit(cap).actionableItems;
  }
  return totalLength(refitted) <= budget
    ? [...refitted]
    : fitFeedback("", refitted, budget).actionableItems;
}

/** Code points in all items together. */
function totalLength(items: readonly string[]): number {
  return items.reduce((sum, item) => sum + codePointLength(item), 0);
}

/** Both summaries joined; when that is more than half the cap, each gets half of that half. */
function combinedSummary(test: string, review: string, maxLength: number): string {
  const joined = `${test}${SUMMARY_SEPARATOR}${review}`;
  const budget = Math.max(1, Math.floor(maxLength / 2));
  const share = Math.floor((budget - SUMMARY_SEPARATOR.length) / 2);
  if (codePointLength(joined) <= budget || share < 2) return joined;
  const testPart = truncateCodePoints(
    test,
    Math.max(share, budget - SUMMARY_SEPARATOR.length - codePointLength(review)),
  );
  const reviewPart = truncateCodePoints(
    review,
    budget - SUMMARY_SEPARATOR.length - codePointLength(testPart),
  );
  return `${testPart}${SUMMARY_SEPARATOR}${reviewPart}`;
}

/** The more urgent of two priorities. */
function higher(a: Priority, b: Priority): Priority {
  return PRIORITY_RANK[a] >= PRIORITY_RANK[b] ? a : b;
}
