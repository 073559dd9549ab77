import { LoopgateError } from "../core/errors.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { replay } from "../core/loop/replay.js";
import { InputError } from "../wire/input-error.js";
import { hookSessionOf, isHookSessionDocument, sessionTaskFile } from "../hook/hook-session.js";
import { decodeTaskFile, planOf, type TaskFile } from "../wire/task-file.js";
import { damagedRun, type Journal, type JournalEntry, type RunRecord } from "./journal.js";
import { JournalError } from "./journal-error.js";
import { runFilesDir } from "./journal-location.js";

/** A run rebuilt from the journal: its task file, its plan, its events and its state. */
export interface LoadedRun {
  readonly run: RunRecord;
  readonly file: TaskFile;
  readonly plan: LoopPlan;
  readonly entries: readonly JournalEntry[];
  readonly state: LoopState;
  /** Where the run's step files live (see `runFilesDir`). */
  readonly runDir: string;
}

/** The run's journaled task file (a Stop-hook session's, built from its config), decoded; a document that no longer decodes is damage. */
function taskFileOf(run: RunRecord): TaskFile {
  try {
    if (!isHookSessionDocument(run.document)) return decodeTaskFile(run.document);
    const { session, config } = hookSessionOf(run.document);
    return sessionTaskFile(session, config);
  } catch (error) {
    if (!InputError.isInputError(error)) throw error;
    throw damagedRun(run.id, `its task file does not read back (${error.message})`);
  }
}

/**
 * Rebuilds a run's state by folding its journal through the pure loop, working on `concurrency`
 * tasks at once: the run's own (`run --concurrency`) unless a resume overrides it. A run whose
 * row or events cannot be read back, or do not fold, is JOURNAL_DAMAGED, naming the event.
 */
export function loadRun(journal: Journal, runId: number, concurrency?: number): LoadedRun {
  const run = journal.run(runId);
  if (run === undefined)
    throw new LoopgateError("INVALID_USAGE", `no run ${runId} in ${journal.path}`);
  const file = taskFileOf(run);
  const plan: LoopPlan = { ...planOf(file), concurrency: concurrency ?? run.concurrency };
  const entries = journal.events(runId);
  // The event being folded, to name the one that does not fit.
  let seq = 0;
  const folded = function* () {
    for (const entry of entries) {
      seq = entry.seq;
      yield entry.event;
    }
  };
  let state: LoopState;
  try {
    state = replay(plan, folded());
  } catch (error) {
    if (!LoopgateError.is(error) || error.code !== "INVALID_EVENT") throw error;
    throw damagedRun(runId, `event ${seq}: ${error.message}`);
  }
  return {
    run,
    file,
    plan,
    entries,
    state,
    runDir: runFilesDir(journal.path, runId),
  };
}

/** Whether an error says a run cannot be read back. */
export function isDamage(error: unknown): error is JournalError {
  return JournalError.isJournalError(error) && error.code === "JOURNAL_DAMAGED";
}

/**
 * Loads the runs a reading command shows, skipping each damaged one after handing its error to
 * `skipped`: one damaged run leaves every other readable.
 */
export function readableRuns(
  journal: Journal,
  ids: readonly number[],
  skipped: (error: JournalError) => void,
): LoadedRun[] {
  const loaded: LoadedRun[] = [];
  for (const id of ids) {
    try {
      loaded.push(loadRun(journal, id));
    } catch (error) {
      if (!isDamage(error)) throw error;
      skipped(error);
    }
  }
  return loaded;
}
