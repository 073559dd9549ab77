import type { TestOutputParser } from "../feedback/feedback.js";
import type { AttemptLike } from "./attempt-like.js";
import { attemptRecords, type AttemptRecord } from "./attempt-record.js";
import { converging } from "./patterns/converging.js";
import { flaky } from "./patterns/flaky.js";
import { oscillation } from "./patterns/oscillation.js";
import type { Pattern } from "./patterns/pattern.js";
import { repeatedFailure } from "./patterns/repeated-failure.js";
import { repeatedReviewPoint } from "./patterns/repeated-review-point.js";
import { typeMismatchPattern } from "./patterns/type-mismatch-pattern.js";

/**
 * Pattern detectors, most specific first: flakiness discredits every other reading of the
 * outcomes; a type mismatch names the decision to make, a repeated review point what to
 * clarify. Oscillation comes before convergence, since the tail of an oscillation can look
 * like a falling count (3 failures, then 1); repetition only says it is stuck.
 */
const DETECTORS: readonly ((records: readonly AttemptRecord[]) => Pattern | null)[] = [
  flaky,
  typeMismatchPattern,
  repeatedReviewPoint,
  oscillation,
  converging,
  repeatedFailure,
];

/** The most specific pattern in already-read attempts, or null when none is found. */
export function findPattern(records: readonly AttemptRecord[]): Pattern | null {
  for (const detect of DETECTORS) {
    const pattern = detect(records);
    if (pattern !== null) return pattern;
  }
  return null;
}

/**
 * What keeps a task's attempts from converging, in one line for `pattern_detected`: flaky
 * tests, a type mismatch, the review rejecting the same point, convergence cut short, the same
 * failure repeated, or oscillation between two outcomes. Null when the attempts show none.
 */
export function detectPattern(
  attempts: readonly AttemptLike[],
  parsers?: readonly TestOutputParser[],
): string | null {
  return findPattern(attemptRecords(attempts, parsers))?.description ?? null;
}
