import type { DecideInput } from "../decide-input.js";
import type { Decision, EscalateDecision, WaitDecision } from "../decision.js";
import type { Feedback } from "../feedback/feedback.js";
import type { GivenAnswer, QuestionOption } from "./answer.js";
import type { StepError } from "./step-error.js";
import type { StepName } from "./step-outcome.js";

/** Fields every effect carries. */
interface EffectBase {
  /**
   * Stable id of this piece of work: the same state always asks for the same id, and the event
   * that carries the work out names it. A driver uses it as its idempotency key.
   */
  readonly id: string;
  readonly taskId: string;
  readonly iteration: number;
}

/** What a step is handed (through files, never through its command line). */
export interface StepInputs {
  readonly prompt: string;
  /** The last retry's feedback, or null on a first attempt and after a human answered. */
  readonly feedback: Feedback | null;
  /** The human's latest answer for this task, or null. */
  readonly answer: GivenAnswer | null;
}

/** Run a step of the task's current attempt, then report `step-finished`. */
export interface RunStep extends EffectBase {
  readonly kind: "run-step";
  readonly step: StepName;
  /** 0 for the first run of the review, then 1, 2, … for each poll after a `wait`. */
  readonly poll: number;
  /** Pause before running (review polls only). */
  readonly delayMs: number;
  readonly inputs: StepInputs;
}

/** Journal this decision with its input, then report `decision-recorded`. */
export interface RecordDecision extends EffectBase {
  readonly kind: "record-decision";
  readonly input: DecideInput;
  readonly decision: Decision;
}

/** Pause the task until a human answers, then report `answer-given`. */
export interface AwaitAnswer extends EffectBase {
  readonly kind: "await-answer";
  /** The escalation, or the last `wait` once the review was polled as often as allowed. */
  readonly decision: EscalateDecision | WaitDecision;
  /** Numbered options a human may pick from; empty when the question has none. */
  readonly options: readonly QuestionOption[];
}

/**
 * A step errored: run it again once the task file is fixed, then report `step-resumed`. A driver
 * does so when a new session starts (`loopgate resume`) and its checks pass, never in the session
 * that saw the error, which would only run the broken step again.
 */
export interface ResumeStep extends EffectBase {
  readonly kind: "resume-step";
  readonly step: StepName;
  readonly error: StepError;
}

/** Every task proceeded or ended: the run is over. */
export interface Finish {
  readonly kind: "finish";
  readonly id: "finish";
}

/** Work the pure loop asks its driver to carry out. */
export type LoopEffect = RunStep | RecordDecision | AwaitAnswer | ResumeStep | Finish;
