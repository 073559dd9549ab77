import type { Journal, RunRecord } from "./journal.js";
import { runOption } from "./pick-run.js";
import { LoopgateError } from "../core/errors.js";

/**
 * The runs a `history` or `explain` reads: `--run ID`; else, for a task, every run that has
 * events of it; else the latest run.
 */
export function runsFor(
  journal: Journal,
  run: string | undefined,
  taskId: string | undefined,
): RunRecord[] {
  const id = runOption(run);
  const runs = journal.runs();
  const picked =
    id !== undefined
      ? runs.filter((candidate) => candidate.id === id)
      : taskId !== undefined
        ? runs.filter((candidate) =>
            journal.events(candidate.id).some((entry) => entry.event.taskId === taskId),
          )
        : runs.slice(-1);
  if (picked.length === 0) {
    const what =
      id !== undefined
        ? `run ${id}`
        : taskId !== undefined
          ? `task ${JSON.stringify(taskId)}`
          : "run";
    throw new LoopgateError("INVALID_USAGE", `no ${what} in ${journal.path} (see loopgate status)`);
  }
  return picked;
}
