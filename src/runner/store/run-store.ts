import type { AnswerGiven, LoopEvent } from "../../core/loop/loop-event.js";
import type { EventRead, JournalEntry, RunRecord } from "../journal.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import type { TaskBrief } from "../../core/loop/task-brief.js";
import type { LoadedRun } from "../load-run.js";

/**
 * The reading side of a store, synchronous so that one fold and one formatter serve both
 * stores: a SQLite journal is one as it is; a PostgreSQL store hands out a snapshot of the runs
 * a command reads (see `RunStore.read`).
 */
export interface RunReader {
  /** Where the runs are, for messages: the journal's path, or the store's URL (password masked). */
  readonly path: string;
  run(id: number): RunRecord | undefined;
  runIds(): number[];
  runIdsWithTask(taskId: string): number[];
  events(runId: number, taskId?: string): JournalEntry[];
  readEvents(runId?: number, taskId?: string): EventRead[];
  /**
   * The run's task summaries kept beside its events, by task, when the store keeps them and they
   * are current (the SQLite journal); absent or undefined: the commands fold the events instead.
   */
  taskBriefs?(runId: number): ReadonlyMap<string, TaskBrief> | undefined;
}

/**
 * The runs a command reads: `run` alone; else the runs that have `task`; else every run with
 * `all`; else the latest. A reader may hold more; a snapshot holds at least these.
 */
export interface ReadScope {
  readonly run?: number | undefined;
  readonly task?: string | undefined;
  readonly all?: boolean;
}

/** Who holds a task's work right now: the worker (DBOS executor id) and the workflow's state. */
export interface TaskOwner {
  readonly executor: string;
  /** DBOS's workflow status: `PENDING` (being worked on, or waiting in a worker for an answer). */
  readonly status: string;
}

/** Whether `cancel` may journal now: `held` (then `release`), or `busy`, a runner holding the run. */
export type CancelHold =
  | { readonly kind: "held"; readonly release: () => void }
  | { readonly kind: "busy"; readonly pid: number; readonly host: string };

/** What `doctor` found in a store, read without changing it. */
export interface StoreHealth {
  /** One labelled finding per line, in the order they are printed. */
  readonly findings: readonly (readonly [label: string, text: string])[];
  readonly healthy: boolean;
  /** The findings as data, for `--json`. */
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The port every command reaches a store through: the embedded SQLite journal
 * (`store/sqlite/`) or a PostgreSQL database worked on by DBOS (`store/postgres/`). The fold,
 * the formatting and the checks are the commands' own and the same for both.
 */
export interface RunStore {
  readonly kind: "sqlite" | "postgres";
  /** Where the runs are, for messages. */
  readonly path: string;
  /** What printed commands must repeat to reach this store again (` --db PATH`, or ""). */
  readonly hint: string;
  /** The runs `scope` names (and maybe more), to read and fold. */
  read(scope: ReadScope): Promise<RunReader>;
  /**
   * Appends `event` as the `place`-th event of its task's story (the number of the task's events
   * the caller folded). False when that place is taken (another process appended meanwhile:
   * read again) or the task is cancelled; SQLite appends in order under its lease and is never.
   */
  append(
    runId: number,
    event: LoopEvent,
    meta: Record<string, unknown>,
    place: number,
    /** The state the event leads to, for a store that keeps task summaries with its events. */
    after?: LoopState,
  ): Promise<boolean>;
  /**
   * Hands a checked answer to its paused task and journals it as the `place`-th event of the
   * task's story: SQLite journals it (the next resume reads it); PostgreSQL sends it to the
   * task's workflow (waiting in `DBOS.recv`) too, which journals the same event there.
   */
  give(
    runId: number,
    event: AnswerGiven,
    meta: Record<string, unknown>,
    place: number,
    /** The state the answer leads to, as for `append`. */
    after?: LoopState,
  ): Promise<void>;
  /** Who holds each of the run's unfinished tasks; empty where the store does not say (SQLite). */
  owners(runId: number): Promise<ReadonlyMap<string, TaskOwner>>;
  /**
   * Stops the work on `taskIds` of the run before `cancel` journals their end: SQLite takes the
   * run's lease (busy when a runner holds it) and kills what a dead runner's steps left; PostgreSQL
   * cancels the tasks' workflows, so no worker starts another step of them.
   */
  holdForCancel(loaded: LoadedRun, taskIds: readonly string[]): Promise<CancelHold>;
  /**
   * Examines the store without changing it (`doctor`): each store checks what can go wrong with
   * it (a SQLite file's integrity; a database's schemas, workers and task workflows), and both
   * fold every run. `full`: SQLite's slower integrity_check.
   */
  health(full: boolean): Promise<StoreHealth>;
  /** Keeps `document` (a fixed task file, redacted) in place of the run's (`resume --task-file`). */
  replaceDocument(runId: number, document: unknown): Promise<void>;
  close(): Promise<void>;
}
