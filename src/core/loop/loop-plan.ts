import type { StopConditions } from "../decide-input.js";
import type { IterationControl } from "../iteration-check.js";

/**
 * How caps are re-granted when a human answers an escalation with "continue" (an option or
 * guidance): the task gets this much more room, so the loop can act on the answer.
 */
export interface AnswerPolicy {
  /** Attempts added to the task's iteration cap; at least 1, so an answer always buys an attempt. */
  readonly extraIterations: number;
  /** Added to `budget_cap` when the task has one. */
  readonly extraBudget: number;
  /** Added to `time_limit_ms` when the task has one. */
  readonly extraTimeMs: number;
}

/** How long a pending review is polled before a human is asked. */
export interface ReviewWait {
  /** Re-runs of the review step after a `wait` decision before the task pauses for a human. */
  readonly maxPolls: number;
  /** Pause before each re-run. */
  readonly intervalMs: number;
}

/** One task as the loop runs it, with its settings resolved (task overrides over file defaults). */
export interface LoopTask {
  readonly id: string;
  readonly prompt: string;
  readonly iterationControl: IterationControl;
  readonly stopConditions: StopConditions;
  readonly onAnswer: AnswerPolicy;
  readonly reviewWait: ReviewWait;
  /** Whether the task has a test step; without one every attempt's test passes. */
  readonly hasTest: boolean;
  /** Whether the task has a review step; without one every attempt is approved (SPEC §3 note). */
  readonly hasReview: boolean;
}

/** Everything the pure loop needs to know about a run: its tasks, in the order they start. */
export interface LoopPlan {
  readonly tasks: readonly LoopTask[];
  /**
   * How many tasks are worked on at once: the first `concurrency` tasks, in file order, that are
   * neither done nor paused; a paused task holds no place, except at 1 (tasks run one after
   * another, and a paused one stops the line). Absent means 1. It only schedules; a journal
   * replays to the same state whatever concurrency wrote it.
   */
  readonly concurrency?: number;
}

/** The default re-grant policy: two more attempts, no extra budget or time. */
export const DEFAULT_ANSWER_POLICY: AnswerPolicy = Object.freeze({
  extraIterations: 2,
  extraBudget: 0,
  extraTimeMs: 0,
});

/** The default review wait: poll a pending review up to 10 times, 30 s apart. */
export const DEFAULT_REVIEW_WAIT: ReviewWait = Object.freeze({ maxPolls: 10, intervalMs: 30_000 });
