import type { DecideInput } from "../decide-input.js";
import type { Decision } from "../decision.js";
import type { Answer } from "./answer.js";
import type { StepError } from "./step-error.js";
import type { StepName, StepOutcome } from "./step-outcome.js";

/** Fields every event carries: the effect it answers, so a replay can check the journal's order. */
interface EventBase {
  /** The id of the effect this event carries out (see `LoopEffect.id`). */
  readonly effectId: string;
  readonly taskId: string;
  readonly iteration: number;
}

/** A step was launched; it leaves the state as it is, so a step cut off mid-way runs again. */
export interface StepStarted extends EventBase {
  readonly type: "step-started";
  readonly step: StepName;
}

/** A step ran to its end (or its timeout) and the driver read its outcome. */
export interface StepFinished extends EventBase {
  readonly type: "step-finished";
  readonly outcome: StepOutcome;
}

/** A step could not be judged (see `StepError`): the task pauses with reason STEP_ERROR. */
export interface StepErrored extends EventBase {
  readonly type: "step-errored";
  readonly error: StepError;
}

/** A session that checked the task file again runs the step that errored once more. */
export interface StepResumed extends EventBase {
  readonly type: "step-resumed";
  readonly step: StepName;
}

/** A decision was journaled with its complete input; the journaled decision is the one applied. */
export interface DecisionRecorded extends EventBase {
  readonly type: "decision-recorded";
  readonly input: DecideInput;
  readonly decision: Decision;
}

/** A human answered a paused task. */
export interface AnswerGiven extends EventBase {
  readonly type: "answer-given";
  readonly answer: Answer;
}

/**
 * A human ended the task before it finished (`loopgate cancel`), whatever it was waiting for:
 * it is done, as cancelled. It carries out the task's pending effect, so a runner still holding
 * that effect cannot journal it afterwards.
 */
export interface TaskCancelled extends EventBase {
  readonly type: "task-cancelled";
  /** Why, in the human's words; absent when none was given. */
  readonly reason?: string;
  readonly by?: string;
}

/**
 * The driver reset the task's git workspace to an earlier attempt's commit, as the human's
 * answer asked (its `restore`). It carries out nothing — the task's pending effect is still to
 * do — and changes nothing of the loop: it says the restore is done, so a driver resumed after
 * a crash between the answer and the reset knows to finish it (docs/workspaces.md).
 */
export interface AttemptRestored extends EventBase {
  readonly type: "attempt-restored";
  /** The attempt brought back. */
  readonly attempt: number;
  /** Its commit: the workspace's HEAD now. */
  readonly commit: string;
  /** The commit the workspace was at before (the later attempts), kept reachable by `tag`. */
  readonly replaced: string;
  /** The tag that keeps `replaced` reachable; absent when nothing was replaced. */
  readonly tag?: string;
}

/** Everything that can happen to a loop; a driver journals these and folds them to rebuild state. */
export type LoopEvent =
  | StepStarted
  | StepFinished
  | StepErrored
  | StepResumed
  | DecisionRecorded
  | AnswerGiven
  | TaskCancelled
  | AttemptRestored;
