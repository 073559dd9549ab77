import { LoopgateError } from "../core/errors.js";
import type { RunReader } from "./store/run-store.js";
import type { JournalError } from "./journal-error.js";
import { awaitedAnswers, effectsOf } from "../core/loop/effects-of.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { runStandingOf, type RunStatus } from "../core/loop/run-status.js";
import { runSummary } from "../core/loop/run-summary.js";
import { isDamage, loadRun, loadTask, readableRuns, type LoadedRun } from "./load-run.js";
import { latestRun, runOption } from "./pick-run.js";

/**
 * The runs a `history` or `explain` reads, loaded: `--run ID`; else, for a task, every readable
 * run that has events of it (found through the journal's task index; damaged runs go to
 * `skipped`); else the latest run. For a task, each run is loaded as that task sees it (its
 * events alone, see `loadTask`). A run asked for by id, or as the latest, that is damaged is an
 * error, and so is a task found only in damaged runs.
 */
export function runsFor(
  journal: RunReader,
  run: string | undefined,
  taskId: string | undefined,
  skipped: (error: JournalError) => void,
): LoadedRun[] {
  const id = runOption(run);
  if (id !== undefined && journal.run(id) === undefined) throw noSuch(journal, `run ${id}`);
  if (taskId === undefined) return [loadRun(journal, id ?? latestRun(journal))];
  if (id !== undefined) return [loadTask(journal, id, taskId)];
  const damaged: JournalError[] = [];
  const picked = readableRuns(
    journal.runIdsWithTask(taskId),
    (error) => damaged.push(error),
    (candidate) => loadTask(journal, candidate, taskId),
  );
  const [first, ...others] = damaged;
  if (picked.length === 0 && first !== undefined) {
    others.forEach(skipped);
    throw first;
  }
  damaged.forEach(skipped);
  if (picked.length === 0) throw noSuch(journal, `task ${JSON.stringify(taskId)}`);
  return picked;
}

/** The usage error for a run or task the journal does not have. */
function noSuch(journal: RunReader, what: string): LoopgateError {
  return new LoopgateError("INVALID_USAGE", `no ${what} in ${journal.path} (see loopgate status)`);
}

/** The run's status; a run with one task paused and another still running is unfinished. */
export function runStatusOf(state: LoopState): RunStatus {
  return runStandingOf(runSummary(state), state.plan.concurrency ?? 1).status;
}

/** Whether the run is over: finished or cancelled. */
export function isOver(state: LoopState): boolean {
  return effectsOf(state)[0]?.kind === "finish";
}

/** A run of a task file that is not over. */
export interface OpenRun {
  readonly runId: number;
  readonly status: "awaiting-answer" | "step-error" | "unfinished";
  /** The tasks paused for an answer in it. */
  readonly awaiting: readonly string[];
}

/**
 * The latest run of `taskFile` (an absolute path) when it is not over; damaged runs are passed
 * over. Only the latest is read, so a journal of many runs starts the next one as fast.
 */
export function openRunOf(journal: RunReader, taskFile: string): OpenRun | undefined {
  for (const id of journal.runIds().reverse()) {
    let loaded: LoadedRun;
    try {
      if (journal.run(id)?.taskFile !== taskFile) continue;
      loaded = loadRun(journal, id);
    } catch (error) {
      if (isDamage(error)) continue;
      throw error;
    }
    const status = runStatusOf(loaded.state);
    if (status === "finished" || status === "cancelled") return undefined;
    const awaiting = awaitedAnswers(loaded.state).map((effect) => effect.taskId);
    return { runId: id, status, awaiting };
  }
  return undefined;
}
