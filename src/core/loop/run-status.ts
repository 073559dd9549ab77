import type { TaskOutcome, TaskSummary } from "./run-summary.js";
import { allDone, firstInProgress, offered, scheduleLists, type Standing } from "./schedule.js";

/**
 * Where a run stands: over (`finished`, or `cancelled` when a human ended a task of it), waiting
 * for answers only, or with a task still to move.
 */
export type RunStatus = "finished" | "cancelled" | "awaiting-answer" | "step-error" | "unfinished";

/** A run's status, and its first task in progress (working or paused), if any. */
export interface RunStanding {
  readonly status: RunStatus;
  readonly active: string | null;
}

/** Where a task of each outcome stands for scheduling. */
const STANDING: Readonly<Record<TaskOutcome, Standing>> = {
  proceeded: "done",
  aborted: "done",
  cancelled: "done",
  "awaiting-answer": "paused",
  "step-error": "paused",
  running: "working",
  pending: "pending",
};

/**
 * Where a run of these tasks (its summary, in run order) stands, worked on `concurrency` tasks
 * at once: the status its state's effects give — over when every task is done; paused when every
 * task offered a place (see `offered`) waits for an answer or a fixed step — worked out from the
 * tasks' outcomes alone, so a summary kept per task tells it without the run's events.
 */
export function runStandingOf(tasks: readonly TaskSummary[], concurrency: number): RunStanding {
  const schedule = scheduleLists(tasks.map((task) => STANDING[task.outcome]));
  const first = firstInProgress(schedule);
  const active = first === undefined ? null : (tasks[first]?.taskId ?? null);
  if (allDone(schedule, tasks.length)) {
    const cancelled = tasks.some((task) => task.outcome === "cancelled");
    return { status: cancelled ? "cancelled" : "finished", active };
  }
  const moving = offered(schedule, concurrency, tasks.length).map(
    (position) => tasks[position]?.outcome ?? "pending",
  );
  if (moving.length === 0 || moving.some((outcome) => STANDING[outcome] !== "paused")) {
    return { status: "unfinished", active };
  }
  const asking = moving.includes("awaiting-answer");
  return { status: asking ? "awaiting-answer" : "step-error", active };
}
