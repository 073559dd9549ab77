import { LoopgateError } from "../core/errors.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { InputError } from "../wire/input-error.js";
import { hookSessionOf, isHookSessionDocument, sessionTaskFile } from "../hook/hook-session.js";
import { decodeTaskFile, planOf, type TaskFile } from "../wire/task-file.js";
import { damagedRun, type Journal, type JournalEntry, type RunRecord } from "./journal.js";
import type { RunReader } from "./store/run-store.js";
import { JournalError } from "./journal-error.js";
import { runFilesDir } from "./journal-location.js";
import { foldEntries } from "./fold-entries.js";
import { runStandingOf } from "../core/loop/run-status.js";
import { startLoop } from "../core/loop/start-loop.js";
import { taskBriefOf, type TaskBrief } from "../core/loop/task-brief.js";

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
export function plannedRun(journal: RunReader, runId: number, concurrency?: number) {
  const run = journal.run(runId);
  if (run === undefined)
    throw new LoopgateError("INVALID_USAGE", `no run ${runId} in ${journal.path}`);
  const file = taskFileOf(run);
  const plan: LoopPlan = { ...planOf(file), concurrency: concurrency ?? run.concurrency };
  return { run, file, plan, runDir: runFilesDir(journal.path, runId) };
}

/** The state `entries` fold to; JOURNAL_DAMAGED naming the first event that does not fold. */
function folded(runId: number, plan: LoopPlan, entries: readonly JournalEntry[]): LoopState {
  const result = foldEntries(plan, entries);
  if (!result.ok) throw damagedRun(runId, `event ${result.seq}: ${result.message}`);
  return result.state;
}

/**
 * Rebuilds a run's state by folding its journal through the pure loop, working on `concurrency`
 * tasks at once: the run's own (`run --concurrency`) unless a resume overrides it. A run whose
 * row or events cannot be read back, or do not fold, is JOURNAL_DAMAGED, naming the event.
 */
export function loadRun(journal: RunReader, runId: number, concurrency?: number): LoadedRun {
  const { run, file, plan, runDir } = plannedRun(journal, runId, concurrency);
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
  const { run, file, plan, runDir } = plannedRun(journal, runId);
  const entries = journal.events(runId, taskId);
  const alone: LoopPlan = { ...plan, tasks: plan.tasks.filter((task) => task.id === taskId) };
  return { run, file, plan, entries, state: folded(runId, alone, entries), runDir };
}

/** A run as its status tells it: its row, its plan, and each task's brief in run order. */
export interface BriefedRun {
  readonly run: RunRecord;
  readonly plan: LoopPlan;
  readonly briefs: readonly TaskBrief[];
}

/** Every task's brief in `state`, in run order. */
export function briefsOf(state: LoopState): TaskBrief[] {
  return state.tasks.map((task, position) => taskBriefOf(state.plan.tasks[position], task));
}

/**
 * A run's tasks as its status tells them, from the summaries the journal keeps beside the events
 * (`RunReader.taskBriefs`, kept by the SQLite journal) without reading an event — or, where they are not current (a journal of
 * an older version, read as it is) or `fold` asks, from folding the run's events, which also
 * finds any damage in them. A task with no events is pending. The briefs are the fold's either
 * way (task-summaries.test.ts).
 */
export function briefRun(journal: RunReader, runId: number, fold = false): BriefedRun {
  const kept = fold ? undefined : journal.taskBriefs?.(runId);
  if (kept !== undefined) {
    const { run, plan } = plannedRun(journal, runId);
    // Every task has a summary (a finished run's case): no task is pending, none is unplanned.
    const all = plan.tasks.map((task) => kept.get(task.id));
    if (all.length === kept.size && all.every((brief) => brief !== undefined)) {
      return { run, plan, briefs: all };
    }
    const start = startLoop(plan).state;
    const briefs = start.tasks.map(
      (task, position) => kept.get(task.id) ?? taskBriefOf(plan.tasks[position], task),
    );
    // A summary of a task the plan lacks: its events do not fold, which the fold names.
    if ([...kept.keys()].every((id) => Object.hasOwn(start.schedule.positions, id))) {
      return { run, plan, briefs };
    }
  }
  const { run, plan, state } = loadRun(journal, runId);
  return { run, plan, briefs: briefsOf(state) };
}

/**
 * Whether run `runId` is over (every task proceeded, aborted or was cancelled), as its task
 * summaries tell it. An over run's event rows are checked against their checksums (their bodies
 * not read back), so a damaged run is named (JOURNAL_DAMAGED) rather than said to be over.
 */
export function runOver(journal: Journal, runId: number): boolean {
  const { plan, briefs } = briefRun(journal, runId);
  const tasks = briefs.map((brief) => brief.summary);
  const { status } = runStandingOf(tasks, plan.concurrency ?? 1);
  if (status !== "finished" && status !== "cancelled") return false;
  const damage = journal.firstMismatchedEvent(runId);
  if (damage !== undefined) throw damage;
  return true;
}

/** Whether an error says a run cannot be read back. */
export function isDamage(error: unknown): error is JournalError {
  return JournalError.isJournalError(error) && error.code === "JOURNAL_DAMAGED";
}

/**
 * Loads the runs a reading command shows (with `load`: the whole run, a task of it, its briefs), skipping each
 * damaged one after handing its error to `skipped`: one damaged run leaves every other readable.
 */
export function readableRuns<Loaded>(
  ids: readonly number[],
  skipped: (error: JournalError) => void,
  load: (runId: number) => Loaded,
): Loaded[] {
  const loaded: Loaded[] = [];
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
