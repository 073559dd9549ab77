import type { TaskState } from "./loop-state.js";
import { attemptOf } from "./attempt-of.js";

/** A task as it starts: its first attempt's generate step is to run. Started tasks are left as they are. */
export function started(task: TaskState): TaskState {
  return task.phase.name === "pending"
    ? { ...task, iteration: 1, phase: { name: "running", step: "generate" } }
    : task;
}

/** Closes the current attempt into history and starts attempt `iteration`. */
export function nextAttempt(
  task: TaskState,
  iteration: number,
  changes: Partial<Pick<TaskState, "feedback" | "answer" | "grant">>,
): TaskState {
  return {
    ...task,
    ...changes,
    attempts: [...task.attempts, attemptOf(task.iteration, task.current)],
    iteration,
    current: {},
    polls: 0,
    phase: { name: "running", step: "generate" },
  };
}
