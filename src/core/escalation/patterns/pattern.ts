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

/** The same change (equal diff signatures) both passed and failed the tests: the tests are unreliable. */
export interface FlakyPattern extends PatternBase {
  readonly kind: "flaky";
  /** Iterations where that change passed the tests, and where it failed them. */
  readonly passedIn: readonly number[];
  readonly failedIn: readonly number[];
}

/** The failing-test count fell with every attempt: more attempts would likely get there. */
export interface ConvergingPattern extends PatternBase {
  readonly kind: "converging";
  /** Failing tests per attempt of the run, oldest first, strictly falling. */
  readonly failingCounts: readonly number[];
  /** Attempts that would clear the rest at the run's average pace (at least 1). */
  readonly attemptsNeeded: number;
}

/** A recurring shape in a task's attempts that explains why the loop is not converging. */
export type Pattern =
  | TypeMismatchPattern
  | RepeatedFailurePattern
  | OscillationPattern
  | RepeatedReviewPointPattern
  | FlakyPattern
  | ConvergingPattern;
