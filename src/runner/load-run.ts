import { dirname, join } from "node:path";
import { LoopgateError } from "../core/errors.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { replay } from "../core/loop/replay.js";
import { decodeTaskFile, planOf, type TaskFile } from "../wire/task-file.js";
import type { Journal, JournalEntry, RunRecord } from "./journal.js";

/** A run rebuilt from the journal: its task file, its plan, its events and its state. */
export interface LoadedRun {
  readonly run: RunRecord;
  readonly file: TaskFile;
  readonly plan: LoopPlan;
  readonly entries: readonly JournalEntry[];
  readonly state: LoopState;
  /** Where the run's step files live: next to the journal, under `runs/<id>/`. */
  readonly runDir: string;
}

/**
 * Rebuilds a run's state by folding its journal through the pure loop, working on `concurrency`
 * tasks at once: the run's own (`run --concurrency`) unless a resume overrides it.
 */
export function loadRun(journal: Journal, runId: number, concurrency?: number): LoadedRun {
  const run = journal.run(runId);
  if (run === undefined)
    throw new LoopgateError("INVALID_USAGE", `no run ${runId} in ${journal.path}`);
  const file = decodeTaskFile(run.document);
  const plan: LoopPlan = { ...planOf(file), concurrency: concurrency ?? run.concurrency };
  const entries = journal.events(runId);
  return {
    run,
    file,
    plan,
    entries,
    state: replay(
      plan,
      entries.map((entry) => entry.event),
    ),
    runDir: join(dirname(journal.path), "runs", String(runId)),
  };
}
