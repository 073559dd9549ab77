import type { TypeMismatch } from "../type-mismatch.js";

/** Fields every pattern carries: a one-line description for `pattern_detected`. */
interface PatternBase {
  readonly description: string;
  /** The iterations the pattern spans, oldest first. */
  readonly iterations: readonly number[];
}

/** The latest attempt fails because one value has the right content in the wrong type. */
export interface TypeMismatchPattern extends PatternBase {
  readonly kind: "type-mismatch";
  readonly mismatch: TypeMismatch;
}

/** The last attempts ended with the same outcome: the loop changes nothing that matters. */
export interface RepeatedFailurePattern extends PatternBase {
  readonly kind: "repeated-failure";
  /** What keeps failing, as the short reason's detail. */
  readonly failure: string;
}

/** The last attempts flip between two outcomes: fixing one breaks the other. */
export interface OscillationPattern extends PatternBase {
  readonly kind: "oscillation";
  readonly outcomes: readonly [string, string];
}

/** Tests pass but the review keeps rejecting on the same point. */
export interface RepeatedReviewPointPattern extends PatternBase {
  readonly kind: "repeated-review-point";
  readonly point: string;
}

/** A recurring shape in a task's attempts that explains why the loop is not converging. */
export type Pattern =
  TypeMismatchPattern | RepeatedFailurePattern | OscillationPattern | RepeatedReviewPointPattern;
