import { LoopgateError } from "../core/errors.js";
import type { Journal } from "./journal.js";
import type { JournalError } from "./journal-error.js";
import { loadRun, readableRuns, type LoadedRun } from "./load-run.js";
import { latestRun, runOption } from "./pick-run.js";

/**
 * The runs a `history` or `explain` reads, loaded: `--run ID`; else, for a task, every readable
 * run that has events of it (damaged runs go to `skipped`); else the latest run. A run asked for
 * by id, or as the latest, that is damaged is an error, and so is a task found only in damaged runs.
 */
export function runsFor(
  journal: Journal,
  run: string | undefined,
  taskId: string | undefined,
  skipped: (error: JournalError) => void,
): LoadedRun[] {
  const id = runOption(run);
  if (id === undefined && taskId === undefined) return [loadRun(journal, latestRun(journal))];
  const damaged: JournalError[] = [];
  const ids = journal.runIds().filter((candidate) => id === undefined || candidate === id);
  const picked =
    id !== undefined
      ? ids.map((candidate) => loadRun(journal, candidate))
      : readableRuns(journal, ids, (error) => damaged.push(error)).filter((candidate) =>
          candidate.entries.some((entry) => entry.event.taskId === taskId),
        );
  const [first, ...others] = damaged;
  if (picked.length === 0 && first !== undefined) {
    others.forEach(skipped);
    throw first;
  }
  damaged.forEach(skipped);
  if (picked.length === 0) {
    const what = id !== undefined ? `run ${id}` : `task ${JSON.stringify(taskId)}`;
    throw new LoopgateError("INVALID_USAGE", `no ${what} in ${journal.path} (see loopgate status)`);
  }
  return picked;
}
