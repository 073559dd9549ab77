import type { Approval } from "./counters.js";

/** Outcome of the test step. */
export type TestStatus = "pass" | "fail";
/** Outcome of the review step; `pending` means the reviewer has not answered yet. */
export type ReviewStatus = "approve" | "reject" | "pending";

/** What the test step reported: its status and its raw output (any runner, any size). */
export interface TestResult {
  readonly status: TestStatus;
  readonly output: string;
  /**
   * Machine-readable reports the run wrote (JUnit XML, Jest/Vitest JSON, `go test -json`, TAP,
   * CTRF), each whole: their failures are read first, the output adds what they lack.
   */
  readonly reports?: readonly string[];
}

/** What the reviewer reported: its status and its feedback text. */
export interface ReviewResult {
  readonly status: ReviewStatus;
  readonly feedback: string;
}

/** An earlier attempt of the same task, as kept in `history` (oldest first). */
export interface Attempt {
  readonly iteration: number;
  readonly testResult: TestResult;
  readonly reviewResult: ReviewResult;
  readonly diff?: string;
  readonly score?: number | null;
}

/** The attempt just evaluated and everything measured about the task so far (SPEC §3 `iteration_check`). */
export interface IterationCheck {
  readonly taskId: string;
  /** 1-based number of the attempt just evaluated. */
  readonly currentIteration: number;
  /** Overrides `iteration_control.max_iterations` for this task. */
  readonly maxIterations?: number;
  readonly testResult: TestResult;
  readonly reviewResult: ReviewResult;
  readonly spend?: number;
  readonly score?: number | null;
  readonly scores?: readonly number[];
  readonly signatures?: readonly string[];
  readonly elapsedMs?: number;
  readonly approval?: Approval | null;
  readonly diff?: string;
  readonly history?: readonly Attempt[];
}

/** How the loop reacts to failures (SPEC §3 `iteration_control`), defaults resolved. */
export interface IterationControl {
  readonly maxIterations: number;
  readonly autoRetryOnTestFail: boolean;
  readonly autoRetryOnReviewReject: boolean;
  readonly escalationIncludesDiff: boolean;
  readonly feedbackMaxLength: number;
}

/** The seed's defaults for `iteration_control`. */
export const DEFAULT_ITERATION_CONTROL: IterationControl = Object.freeze({
  maxIterations: 3,
  autoRetryOnTestFail: true,
  autoRetryOnReviewReject: true,
  escalationIncludesDiff: true,
  feedbackMaxLength: 500,
});
