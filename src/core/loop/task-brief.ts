import type { QuestionOption } from "./answer.js";
import { taskEffect } from "./effects-of.js";
import type { LoopTask } from "./loop-plan.js";
import type { TaskState } from "./loop-state.js";
import { taskSummaryOf, type TaskSummary } from "./run-summary.js";
import { STEP_ERROR, type StepError } from "./step-error.js";

/** A task paused for a human, with the question it asks. */
export interface AwaitingBrief {
  readonly taskId: string;
  readonly iteration: number;
  readonly reason: string;
  readonly question: string;
  readonly options: readonly QuestionOption[];
}

/** A task paused by a step error. */
export interface StepErrorBrief {
  readonly taskId: string;
  readonly iteration: number;
  readonly reason: string;
  readonly error: StepError;
}

/**
 * What a run's status tells of one task: its summary row and, while it is paused, what it waits
 * on. It depends on the task's own state alone, so it can be kept beside the task's events.
 */
export interface TaskBrief {
  readonly summary: TaskSummary;
  readonly awaiting: AwaitingBrief | null;
  readonly stepError: StepErrorBrief | null;
}

/** The brief of `task`, planned as `plan`. */
export function taskBriefOf(plan: LoopTask | undefined, task: TaskState): TaskBrief {
  const effect = taskEffect(plan, task);
  const base = { taskId: task.id, iteration: effect?.iteration ?? task.iteration };
  return {
    summary: taskSummaryOf(task),
    awaiting:
      effect?.kind === "await-answer"
        ? {
            ...base,
            reason: effect.decision.reason,
            question:
              effect.decision.action === "escalate"
                ? effect.decision.question
                : effect.decision.message,
            options: effect.options,
          }
        : null,
    stepError:
      effect?.kind === "resume-step" ? { ...base, reason: STEP_ERROR, error: effect.error } : null,
  };
}
