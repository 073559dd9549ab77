import type { AnswerGiven, LoopEvent } from "../../../core/loop/loop-event.js";
import type { LoopState } from "../../../core/loop/loop-state.js";
import type { Journal } from "../../journal.js";
import { Leases } from "../../lease.js";
import type { LoadedRun } from "../../load-run.js";
import { openLocatedJournal } from "../../session.js";
import { killOrphans } from "../../sqlite-driver.js";
import type { CancelHold, RunReader, RunStore, StoreHealth, TaskOwner } from "../run-store.js";
import { sqliteHealth } from "./sqlite-health.js";

/**
 * The embedded SQLite journal behind the store port: the journal's own functions, unchanged.
 * It is its own reader (lazy, whatever the scope), appends in order, and holds a run by its lease.
 */
export class SqliteRunStore implements RunStore {
  readonly kind = "sqlite";

  constructor(
    /** The open journal; `run` and `resume` drive it directly (see `driveSession`). */
    readonly journal: Journal,
    readonly hint: string,
  ) {}

  /** The journal's path. */
  get path(): string {
    return this.journal.path;
  }

  /** The journal itself: it reads each run when asked. */
  read(): Promise<RunReader> {
    return Promise.resolve(this.journal);
  }

  /** Appends after every event there: the caller holds the run (answers need no lease). */
  append(
    runId: number,
    event: LoopEvent,
    meta: Record<string, unknown>,
    _place: number,
    after?: LoopState,
  ): Promise<boolean> {
    this.journal.append(runId, event, meta, after);
    return Promise.resolve(true);
  }

  /** Journals the answer (in order: `place` is the SQLite journal's own); the next resume hands it to the task. */
  async give(
    runId: number,
    event: AnswerGiven,
    meta: Record<string, unknown>,
    place: number,
    after?: LoopState,
  ): Promise<void> {
    await this.append(runId, event, meta, place, after);
  }

  /** The journal holds runs by lease, not tasks: nobody is named. */
  owners(): Promise<ReadonlyMap<string, TaskOwner>> {
    return Promise.resolve(new Map());
  }

  /** Takes the run's lease (busy when a live runner holds it), then kills a dead runner's steps. */
  holdForCancel(loaded: LoadedRun): Promise<CancelHold> {
    const leases = new Leases(this.journal);
    const taken = leases.acquire(`run:${loaded.run.id}`);
    if (!taken.ok) {
      return Promise.resolve({ kind: "busy", pid: taken.holder.pid, host: taken.holder.host });
    }
    killOrphans(loaded.entries);
    return Promise.resolve({ kind: "held", release: () => leases.releaseAll() });
  }

  /** The journal's schema, size and integrity, and every run and event read back. */
  health(full: boolean): Promise<StoreHealth> {
    return Promise.resolve(sqliteHealth(this.journal, full));
  }

  replaceDocument(runId: number, document: unknown): Promise<void> {
    this.journal.replaceDocument(runId, document);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.journal.close();
    return Promise.resolve();
  }
}

/**
 * The SQLite store `locateJournal` finds: opened to `read` or to `write` (created when missing,
 * unless `mustExist`).
 */
export function openSqliteStore(
  db: string | undefined,
  access: "read" | "write",
  from: { readonly mustExist?: boolean } = {},
): SqliteRunStore {
  const { journal, hint } = openLocatedJournal(db, access, from);
  return new SqliteRunStore(journal, hint);
}
