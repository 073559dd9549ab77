import type { DecideInput } from "../decide-input.js";
import type { Decision, EscalateDecision, WaitDecision } from "../decision.js";
import type { Feedback } from "../feedback/feedback.js";
import type { Attempt } from "../iteration-check.js";
import type { GivenAnswer, QuestionOption } from "./answer.js";
import type { LoopPlan } from "./loop-plan.js";
import type { StepError } from "./step-error.js";
import type { GenerateOutcome, ReviewOutcome, StepName, TestOutcome } from "./step-outcome.js";

/**
 * Version of the state's shape; a driver refuses a state of another version instead of misreading
 * it. Version 2 added `schedule`.
 */
export const LOOP_STATE_VERSION = 2;

/** Where a task is in its loop. */
export type TaskPhase =
  /** Not started: nothing of it is journaled yet (earlier tasks hold every place, or it is next). */
  | { readonly name: "pending" }
  /** A step of the current attempt is to run (or running). */
  | { readonly name: "running"; readonly step: StepName }
  /** The attempt was decided; the decision waits to be journaled. */
  | { readonly name: "deciding"; readonly input: DecideInput; readonly decision: Decision }
  /** Paused for a human. */
  | {
      readonly name: "awaiting-answer";
      readonly decision: EscalateDecision | WaitDecision;
      readonly options: readonly QuestionOption[];
    }
  /** Paused: a step could not be judged (reason STEP_ERROR); the task file needs fixing. */
  | { readonly name: "step-error"; readonly step: StepName; readonly error: StepError }
  /** Finished for good. */
  | {
      readonly name: "done";
      readonly outcome: "proceeded" | "aborted" | "cancelled";
      readonly reason: string;
    };

/** The step outcomes collected so far for the attempt in progress. */
export interface CurrentAttempt {
  readonly generate?: GenerateOutcome;
  readonly test?: TestOutcome;
  readonly review?: ReviewOutcome;
}

/** Room a human granted on top of the task's caps by answering escalations. */
export interface Grant {
  readonly iterations: number;
  readonly budget: number;
  readonly timeMs: number;
}

/** One task's loop: its attempts, counters and phase. Plain data. */
export interface TaskState {
  readonly id: string;
  /** The attempt in progress or last evaluated, 1-based; 0 before the first. */
  readonly iteration: number;
  /** Evaluated attempts, oldest first: the history `decide` reads. */
  readonly attempts: readonly Attempt[];
  readonly current: CurrentAttempt;
  /** Review re-runs after `wait` decisions in the current attempt. */
  readonly polls: number;
  readonly spend: number;
  readonly tokens: number;
  /** Sum of the task's step durations: the elapsed time TIME_LIMIT reads. */
  readonly elapsedMs: number;
  /** Generate steps that finished, across all attempts. */
  readonly generateRuns: number;
  /** Decisions journaled for this task. */
  readonly decisions: number;
  /** Answers given to this task. */
  readonly answers: number;
  /** Step errors of this task; absent before the first. */
  readonly stepErrors?: number;
  readonly grant: Grant;
  /** Feedback for the next generate step. */
  readonly feedback: Feedback | null;
  /** The latest human answer, handed to every later generate step of the task. */
  readonly answer: GivenAnswer | null;
  /** The input of the latest decision, re-decided with an approval when a human approves or aborts. */
  readonly lastInput: DecideInput | null;
  readonly lastDecision: Decision | null;
  readonly phase: TaskPhase;
}

/**
 * Which tasks stand where, by their position in `tasks` (and `plan.tasks`, in the same order): an
 * index kept up to date as events apply, so neither an event nor `effectsOf` scans the task list.
 * Derived data: `scheduleOf(tasks)` rebuilds it from the tasks alone.
 */
export interface LoopSchedule {
  /** Each task's position, by id. */
  readonly positions: Readonly<Record<string, number>>;
  /** Started tasks running a step or deciding, ascending. */
  readonly working: readonly number[];
  /** Tasks paused for an answer or by a step error, ascending. */
  readonly paused: readonly number[];
  /** Every task from this position on has not started. */
  readonly pendingFrom: number;
  /** The tasks before `pendingFrom` that have not started (others started ahead of them), ascending. */
  readonly pendingBefore: readonly number[];
}

/** The whole loop: versioned, serializable, rebuilt by folding the journal from `startLoop`. */
export interface LoopState {
  readonly version: typeof LOOP_STATE_VERSION;
  readonly plan: LoopPlan;
  readonly tasks: readonly TaskState[];
  readonly schedule: LoopSchedule;
}
