import type { TaskState } from "./loop-state.js";
import { attemptOf } from "./attempt-of.js";

/** Starts the first pending task when no task is in progress: tasks run one after another. */
export function activateNext(tasks: readonly TaskState[]): TaskState[] {
  const busy = tasks.some((task) => task.phase.name !== "pending" && task.phase.name !== "done");
  const next = busy ? -1 : tasks.findIndex((task) => task.phase.name === "pending");
  return tasks.map((task, index) =>
    index === next ? { ...task, iteration: 1, phase: { name: "running", step: "generate" } } : task,
  );
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
