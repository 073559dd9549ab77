import type { LoopState, TaskState } from "./loop-state.js";
import { CANCELLED } from "./cancel.js";
import { STEP_ERROR } from "./step-error.js";

/** Where a task stands, in the final table's words. */
export type TaskOutcome =
  "proceeded" | "aborted" | "cancelled" | "awaiting-answer" | "step-error" | "running" | "pending";

/** One row of a run's summary. */
export interface TaskSummary {
  readonly taskId: string;
  readonly outcome: TaskOutcome;
  /** Attempts made (the attempt in progress included). */
  readonly iterations: number;
  readonly spend: number;
  readonly tokens: number;
  /**
   * The reason of the task's latest decision (the condition that decided), or null before one;
   * STEP_ERROR while a step error pauses it.
   */
  readonly reason: string | null;
}

/** Each task's outcome, attempts, spend and deciding condition, in run order. */
export function runSummary(state: LoopState): TaskSummary[] {
  return state.tasks.map(taskSummaryOf);
}

/** One task's row of the run's summary. */
export function taskSummaryOf(task: TaskState): TaskSummary {
  const phase = task.phase.name;
  const outcome: TaskOutcome =
    task.phase.name === "done"
      ? task.phase.outcome
      : phase === "awaiting-answer" || phase === "step-error"
        ? phase
        : phase === "pending"
          ? "pending"
          : "running";
  return {
    taskId: task.id,
    outcome,
    iterations: task.iteration,
    spend: task.spend,
    tokens: task.tokens,
    reason:
      outcome === "cancelled"
        ? CANCELLED
        : phase === "step-error"
          ? STEP_ERROR
          : (task.lastDecision?.reason ?? null),
  };
}
