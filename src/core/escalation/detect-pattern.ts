import type { TestOutputParser } from "../feedback/feedback.js";
import type { AttemptLike } from "./attempt-like.js";
import { attemptRecords, type AttemptRecord } from "./attempt-record.js";
import { oscillation } from "./patterns/oscillation.js";
import type { Pattern } from "./patterns/pattern.js";
import { repeatedFailure } from "./patterns/repeated-failure.js";
import { repeatedReviewPoint } from "./patterns/repeated-review-point.js";
import { typeMismatchPattern } from "./patterns/type-mismatch-pattern.js";

/**
 * Pattern detectors, most specific first: a type mismatch names the decision to make, a
 * repeated review point names what to clarify; repetition and oscillation only say it is stuck.
 */
const DETECTORS: readonly ((records: readonly AttemptRecord[]) => Pattern | null)[] = [
  typeMismatchPattern,
  repeatedReviewPoint,
  repeatedFailure,
  oscillation,
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
 * What keeps a task's attempts from converging, in one line for `pattern_detected`: a type
 * mismatch, the same failure repeated, oscillation between two outcomes, or the review
 * rejecting the same point. Null when the attempts show none.
 */
export function detectPattern(
  attempts: readonly AttemptLike[],
  parsers?: readonly TestOutputParser[],
): string | null {
  return findPattern(attemptRecords(attempts, parsers))?.description ?? null;
}
