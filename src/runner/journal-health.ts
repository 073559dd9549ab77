import { performance } from "node:perf_hooks";
import type { LoopState } from "../core/loop/loop-state.js";
import type { TaskBrief } from "../core/loop/task-brief.js";
import { toWire } from "../wire/codec.js";
import { quickCheck } from "./journal-database.js";
import { journalMarks } from "./journal-file.js";
import type { Journal } from "./journal.js";
import { briefsOf, isDamage, loadRun } from "./load-run.js";

/** What `loopgate doctor` found: the journal's schema, integrity, size, and what cannot be read. */
export interface JournalHealth {
  readonly path: string;
  readonly schemaVersion: string;
  readonly applicationId: number;
  /** Bytes of the database file and of its write-ahead log (0 when there is none). */
  readonly bytes: { readonly database: number; readonly wal: number };
  readonly integrity: {
    readonly check: "quick_check" | "integrity_check";
    /** "ok", or the first problem SQLite found. */
    readonly result: string;
    readonly ms: number;
  };
  readonly runs: number;
  readonly events: number;
  /** Long texts stored once each, and their bytes. */
  readonly blobs: { readonly count: number; readonly bytes: number };
  /** One message per damaged run, event or table, naming it. */
  readonly damaged: readonly string[];
}

/** Whether a journal's health is good: SQLite's check passed and every run and event reads back. */
export function healthy(health: JournalHealth): boolean {
  return health.integrity.result === "ok" && health.damaged.length === 0;
}

/** A count from the database, or the error naming why it could not be had. */
function count(journal: Journal, sql: string, damaged: Set<string>): number {
  try {
    return Number(journal.db.prepare(sql).pluck().get() ?? 0);
  } catch (error) {
    damaged.add(`${journal.path}: ${(error as Error).message}`);
    return 0;
  }
}

/**
 * The first task whose summary, though current (status reads it), is not the brief of its state
 * `state` has: a writer's fault the journal's checks cannot see.
 */
function summaryDisagreeing(journal: Journal, runId: number, state: LoopState): string | undefined {
  const kept = journal.taskBriefs(runId);
  if (kept === undefined) return undefined;
  const wire = (brief: TaskBrief | undefined) => JSON.stringify(toWire(brief) ?? null);
  const folded = new Map(briefsOf(state).map((brief) => [brief.summary.taskId, brief]));
  for (const [taskId, brief] of kept) {
    if (wire(brief) !== wire(folded.get(taskId))) return taskId;
  }
  return undefined;
}

/**
 * Examines a journal opened for reading, changing nothing: SQLite's quick_check (or, `full`,
 * integrity_check, which also checks the indexes against the tables), then every run folded and
 * every event, blob and reference read back and checked against its checksum, and the task
 * summaries status reads checked against the fold.
 */
export function journalHealth(journal: Journal, full = false): JournalHealth {
  const check = full ? "integrity_check" : "quick_check";
  const started = performance.now();
  let result: string;
  try {
    result = quickCheck(journal.db, check);
  } catch (error) {
    result = (error as Error).message;
  }
  const ms = Math.round(performance.now() - started);
  const damaged = new Set<string>();
  const ids = journal.runIds();
  try {
    for (const read of journal.readEvents()) if (!read.ok) damaged.add(read.error.message);
    for (const id of ids) {
      try {
        const disagreeing = summaryDisagreeing(journal, id, loadRun(journal, id).state);
        if (disagreeing !== undefined) {
          damaged.add(
            `run ${id} is damaged: its summary of task ${JSON.stringify(disagreeing)} is not what the task's events fold to`,
          );
        }
      } catch (error) {
        if (!isDamage(error)) throw error;
        damaged.add(error.message);
      }
    }
  } catch (error) {
    if (!isDamage(error)) throw error;
    damaged.add(error.message);
  }
  const hasBlobs = journal.version !== "1";
  const marks = journalMarks(journal.path);
  return {
    path: journal.path,
    schemaVersion: journal.version,
    applicationId: Number(journal.db.pragma("application_id", { simple: true })),
    bytes: { database: marks.db?.size ?? 0, wal: marks.wal?.size ?? 0 },
    integrity: { check, result, ms },
    runs: ids.length,
    events: count(journal, "SELECT count(*) FROM events", damaged),
    blobs: {
      count: hasBlobs ? count(journal, "SELECT count(*) FROM blobs", damaged) : 0,
      bytes: hasBlobs
        ? count(journal, "SELECT coalesce(sum(length(text)), 0) FROM blobs", damaged)
        : 0,
    },
    damaged: [...damaged],
  };
}
