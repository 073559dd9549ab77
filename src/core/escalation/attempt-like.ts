import type { ReviewResult, TestResult } from "../iteration-check.js";

/** What one attempt produced: its test and review results. */
export interface AttemptOutcome {
  readonly testResult: TestResult;
  readonly reviewResult: ReviewResult;
}

/** An attempt's outcome with its 1-based iteration number, as history and the current check carry it. */
export interface AttemptLike extends AttemptOutcome {
  readonly iteration: number;
  /** The attempt's diff, when known: the same change passing and failing is flakiness. */
  readonly diff?: string;
}
