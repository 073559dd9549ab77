import type { TaskCancelled } from "./loop-event.js";
import type { LoopState, TaskState } from "./loop-state.js";
import { nextEffect } from "./effects-of.js";

/** The reason a cancelled task ended with, as the summary and `explain` name it. */
export const CANCELLED = "CANCELLED";

/** A task that is cancelled: done, with the human's reason kept. */
export function cancelledTask(task: TaskState): TaskState {
  return { ...task, phase: { name: "done", outcome: "cancelled", reason: CANCELLED } };
}

/**
 * The events that cancel `taskIds` (every task not done yet, when absent), each carrying out its
 * task's pending effect; tasks already done are left out.
 */
export function cancelEvents(
  state: LoopState,
  details: { readonly reason?: string; readonly by?: string },
  taskIds?: readonly string[],
): TaskCancelled[] {
  return state.tasks.flatMap((task) => {
    if (taskIds !== undefined && !taskIds.includes(task.id)) return [];
    const effect = nextEffect(state, task);
    if (effect === undefined) return [];
    return [
      {
        type: "task-cancelled" as const,
        effectId: effect.id,
        taskId: task.id,
        iteration: effect.iteration,
        ...details,
      },
    ];
  });
}
