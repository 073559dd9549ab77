import type pg from "pg";
import { LoopgateError } from "../../core/errors.js";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import type { JournalEntry, RunRecord } from "../journal.js";
import { printableStoreUrl } from "../store-url.js";
import { LOOPGATE_SCHEMA_VERSION } from "./loopgate-schema.js";

/** A run's row as stored. */
interface RunRow {
  readonly run_id: string;
  readonly created_at: Date;
  readonly task_file: string;
  readonly base_dir: string;
  readonly document: unknown;
  readonly concurrency: number | null;
}

/** An event's row as stored. */
interface EventRow {
  readonly seq: string;
  readonly run_id: string;
  readonly at: Date;
  readonly event: LoopEvent;
  readonly meta: Record<string, unknown> | null;
}

/** A run's row as `RunRecord`. */
function recordOf(row: RunRow): RunRecord {
  return {
    id: Number(row.run_id),
    createdAt: row.created_at.toISOString(),
    taskFile: row.task_file,
    baseDir: row.base_dir,
    document: row.document,
    concurrency: row.concurrency ?? 1,
  };
}

/** An event's row as `JournalEntry`. */
function entryOf(row: EventRow): JournalEntry {
  return {
    seq: Number(row.seq),
    runId: Number(row.run_id),
    at: row.at.toISOString(),
    event: row.event,
    meta: row.meta,
  };
}

/**
 * loopgate's journal in PostgreSQL (schema `loopgate`, made by `db migrate`): runs and their
 * events, the same events the SQLite journal keeps. An event is keyed by its run, its task and its
 * place in that task's story, so a DBOS step that appends it and runs again (at-least-once)
 * appends it once.
 */
export class PostgresJournal {
  constructor(
    /** The pool of the store's connections, shared with the workers' heartbeat. */
    readonly pool: pg.Pool,
    /** The store's URL, for messages. */
    readonly url: string,
  ) {}

  /** Refuses a database `db migrate` did not prepare, or prepared for another loopgate. */
  async checkSchema(): Promise<void> {
    const found = await this.pool
      .query<{ version: number }>("SELECT version FROM loopgate.schema_version")
      .catch(() => ({ rows: [] }));
    const version = found.rows[0]?.version;
    if (version !== LOOPGATE_SCHEMA_VERSION) {
      throw new LoopgateError(
        "INVALID_USAGE",
        `${printableStoreUrl(this.url)} has ${version === undefined ? "no loopgate tables" : `loopgate schema version ${version}, not ${LOOPGATE_SCHEMA_VERSION}`}: run loopgate db migrate --store URL first`,
      );
    }
  }

  /** Starts a run of a task file (its redacted document) and returns its id. */
  async createRun(
    taskFile: string,
    baseDir: string,
    document: unknown,
    concurrency: number | undefined,
  ): Promise<number> {
    const inserted = await this.pool.query<{ run_id: string }>(
      "INSERT INTO loopgate.runs (task_file, base_dir, document, concurrency) VALUES ($1, $2, $3, $4) RETURNING run_id",
      [taskFile, baseDir, JSON.stringify(document), concurrency ?? null],
    );
    return Number(inserted.rows[0]?.run_id);
  }

  /** The run as stored; a run that is not there is a usage error. */
  async run(runId: number): Promise<RunRecord> {
    const found = await this.pool.query<RunRow>("SELECT * FROM loopgate.runs WHERE run_id = $1", [
      runId,
    ]);
    const row = found.rows[0];
    if (row === undefined) {
      throw new LoopgateError("INVALID_USAGE", `no run ${runId} in ${printableStoreUrl(this.url)}`);
    }
    return recordOf(row);
  }

  /**
   * The run's own `--concurrency` as given, or undefined when it was not: on PostgreSQL only a
   * limit given is one across every worker (`RunRecord.concurrency` reads 1 then, as on SQLite).
   */
  async runLimit(runId: number): Promise<number | undefined> {
    const found = await this.pool.query<Pick<RunRow, "concurrency">>(
      "SELECT concurrency FROM loopgate.runs WHERE run_id = $1",
      [runId],
    );
    return found.rows[0]?.concurrency ?? undefined;
  }

  /** Every run as stored, oldest first. */
  async runs(): Promise<RunRecord[]> {
    const found = await this.pool.query<RunRow>("SELECT * FROM loopgate.runs ORDER BY run_id");
    return found.rows.map(recordOf);
  }

  /** The runs that have events of `taskId`, oldest first. */
  async runIdsWithTask(taskId: string): Promise<number[]> {
    const found = await this.pool.query<{ run_id: string }>(
      "SELECT DISTINCT run_id FROM loopgate.events WHERE task_id = $1 ORDER BY run_id",
      [taskId],
    );
    return found.rows.map((row) => Number(row.run_id));
  }

  /** Keeps `document` (redacted) as the run's task file, in place of the one it started with. */
  async replaceDocument(runId: number, document: unknown): Promise<void> {
    await this.pool.query("UPDATE loopgate.runs SET document = $2 WHERE run_id = $1", [
      runId,
      JSON.stringify(document),
    ]);
  }

  /**
   * Appends `event` as the `taskSeq`-th of its task's story; appending the same place again (a
   * step run again after its worker died) keeps what is there and changes nothing. Nothing is
   * appended after the task's cancellation: a step in flight when `cancel` journaled it ends
   * unheard. Whether the event was appended is returned.
   */
  async append(
    runId: number,
    taskSeq: number,
    event: LoopEvent,
    meta: Record<string, unknown> | null = null,
  ): Promise<boolean> {
    const inserted = await this.pool.query(
      `INSERT INTO loopgate.events (run_id, task_id, task_seq, type, effect_id, event, meta)
       SELECT $1::bigint, $2::text, $3::integer, $4::text, $5::text, $6::json, $7::json
       WHERE NOT EXISTS (SELECT 1 FROM loopgate.events
                         WHERE run_id = $1 AND task_id = $2 AND type = 'task-cancelled')
       ON CONFLICT (run_id, task_id, task_seq) DO NOTHING`,
      [
        runId,
        event.taskId,
        taskSeq,
        event.type,
        event.effectId,
        JSON.stringify(event),
        meta === null ? null : JSON.stringify(meta),
      ],
    );
    return (inserted.rowCount ?? 0) > 0;
  }

  /** The event at a place of a task's story, if one is there. */
  async stored(runId: number, taskId: string, taskSeq: number): Promise<LoopEvent | undefined> {
    const found = await this.pool.query<{ event: LoopEvent }>(
      "SELECT event FROM loopgate.events WHERE run_id = $1 AND task_id = $2 AND task_seq = $3",
      [runId, taskId, taskSeq],
    );
    return found.rows[0]?.event;
  }

  /** A run's events in the order they were appended. */
  async events(runId: number): Promise<JournalEntry[]> {
    return this.eventsOf([runId]);
  }

  /** One task's events in a run, in the order they were appended. */
  async taskEvents(runId: number, taskId: string): Promise<JournalEntry[]> {
    const found = await this.pool.query<EventRow>(
      "SELECT seq, run_id, at, event, meta FROM loopgate.events WHERE run_id = $1 AND task_id = $2 ORDER BY seq",
      [runId, taskId],
    );
    return found.rows.map(entryOf);
  }

  /** The events of the runs `runIds`, in the order they were appended. */
  async eventsOf(runIds: readonly number[]): Promise<JournalEntry[]> {
    const found = await this.pool.query<EventRow>(
      "SELECT seq, run_id, at, event, meta FROM loopgate.events WHERE run_id = ANY($1::bigint[]) ORDER BY seq",
      [runIds],
    );
    return found.rows.map(entryOf);
  }
}
