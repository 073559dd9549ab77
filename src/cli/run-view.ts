import { runStandingOf } from "../core/loop/run-status.js";
import type { BriefedRun } from "../runner/load-run.js";
import type { RunView } from "./status-text.js";

/** A run as `status` shows it, from its tasks' briefs alone. */
export function runViewOf({ run, plan, briefs }: BriefedRun): RunView {
  const tasks = briefs.map((brief) => brief.summary);
  const { status, active } = runStandingOf(tasks, plan.concurrency ?? 1);
  const awaitingTasks = briefs.flatMap((brief) => brief.awaiting ?? []);
  return {
    run: run.id,
    startedAt: run.createdAt,
    taskFile: run.taskFile,
    status,
    active,
    awaiting: awaitingTasks[0] ?? null,
    awaitingTasks,
    stepErrors: briefs.flatMap((brief) => brief.stepError ?? []),
    tasks,
  };
}
