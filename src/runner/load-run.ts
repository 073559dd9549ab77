import { LoopgateError } from "../core/errors.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { InputError } from "../wire/input-error.js";
import { hookSessionOf, isHookSessionDocument, sessionTaskFile } from "../hook/hook-session.js";
import { decodeTaskFile, planOf, type TaskFile } from "../wire/task-file.js";
import { damagedRun, type JournalEntry, type RunRecord } from "./journal.js";
import type { RunReader } from "./store/run-store.js";
import { JournalError } from "./journal-error.js";
import { runFilesDir } from "./journal-location.js";
import { foldByTask } from "./fold-by-task.js";

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

/** The run `runId`, its task file decoded and its plan run `concurrency` tasks at once (default: the run's own). */
function planned(journal: RunReader, runId: number, concurrency?: number) {
  const run = journal.run(runId);
  if (run === undefined)
    throw new LoopgateError("INVALID_USAGE", `no run ${runId} in ${journal.path}`);
  const file = taskFileOf(run);
  const plan: LoopPlan = { ...planOf(file), concurrency: concurrency ?? run.concurrency };
  return { run, file, plan, runDir: runFilesDir(journal.path, runId) };
}

/** The state `entries` fold to; JOURNAL_DAMAGED naming the first event that does not fold. */
function folded(runId: number, plan: LoopPlan, entries: readonly JournalEntry[]): LoopState {
  const result = foldByTask(plan, entries);
  if (!result.ok) throw damagedRun(runId, `event ${result.seq}: ${result.message}`);
  return result.state;
}

/**
 * Rebuilds a run's state by folding its journal through the pure loop, working on `concurrency`
 * tasks at once: the run's own (`run --concurrency`) unless a resume overrides it. A run whose
 * row or events cannot be read back, or do not fold, is JOURNAL_DAMAGED, naming the event.
 */
export function loadRun(journal: RunReader, runId: number, concurrency?: number): LoadedRun {
  const { run, file, plan, runDir } = planned(journal, runId, concurrency);
  const entries = journal.events(runId);
  return { run, file, plan, entries, state: folded(runId, plan, entries), runDir };
}

/**
 * A run as one task of it sees it, rebuilt from that task's events alone, read through the
 * journal's task index: `entries` are the task's, and `state` holds the task alone (what it
 * waits for, its counters; not the run's other tasks). Costs O(the task's events), not the
 * run's; damage elsewhere in the run goes unread.
 */
export function loadTask(journal: RunReader, runId: number, taskId: string): LoadedRun {
  const { run, file, plan, runDir } = planned(journal, runId);
  const entries = journal.events(runId, taskId);
  const alone: LoopPlan = { ...plan, tasks: plan.tasks.filter((task) => task.id === taskId) };
  return { run, file, plan, entries, state: folded(runId, alone, entries), runDir };
}

/** Whether an error says a run cannot be read back. */
export function isDamage(error: unknown): error is JournalError {
  return JournalError.isJournalError(error) && error.code === "JOURNAL_DAMAGED";
}

/**
 * Loads the runs a reading command shows (with `load`, default the whole run), skipping each
 * damaged one after handing its error to `skipped`: one damaged run leaves every other readable.
 */
export function readableRuns(
  journal: RunReader,
  ids: readonly number[],
  skipped: (error: JournalError) => void,
  load: (runId: number) => LoadedRun = (runId) => loadRun(journal, runId),
): LoadedRun[] {
  const loaded: LoadedRun[] = [];
  for (const id of ids) {
    try {
      loaded.push(load(id));
    } catch (error) {
      if (!isDamage(error)) throw error;
      skipped(error);
    }
  }
  return loaded;
}
