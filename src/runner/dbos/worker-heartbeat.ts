import type pg from "pg";
import { LoopgateError } from "../../core/errors.js";
import { alive } from "../lease.js";
import { MOVE_LOCK } from "./task-moves.js";

/** What a worker says of itself in `loopgate.workers`. */
export interface WorkerIdentity {
  readonly executorId: string;
  readonly host: string;
  readonly pid: number;
  readonly appVersion: string;
  /** How long this worker may be silent before live workers take its tasks. */
  readonly leaseMs: number;
}

/** A worker's row as another process reads it. */
export interface WorkerRow {
  readonly host: string;
  readonly pid: number;
  readonly appVersion: string;
  readonly leaseMs: number;
  /** How long ago its last heartbeat was, by the database's clock. */
  readonly silentMs: number;
  readonly stopped: boolean;
}

/**
 * Refuses to start a second process under an executor id another live process beats under:
 * DBOS would hand both the same workflows, and a step would run twice at once. A process of
 * this host that is gone (a crash, then a restart) is no obstacle, nor is one whose heartbeat is
 * older than its lease.
 */
async function refuseTwin(client: pg.PoolClient, self: WorkerIdentity): Promise<void> {
  const found = await client.query<{ host: string; pid: number; fresh: boolean; silent_s: number }>(
    `SELECT host, pid,
            stopped_at IS NULL AND heartbeat_at > clock_timestamp() - lease_ms * interval '1 millisecond' AS fresh,
            extract(epoch FROM clock_timestamp() - heartbeat_at)::float8 AS silent_s
       FROM loopgate.workers WHERE executor_id = $1`,
    [self.executorId],
  );
  const row = found.rows[0];
  if (row === undefined || !row.fresh) return;
  const sameHost = row.host === self.host;
  if (sameHost && (row.pid === self.pid || !alive(row.pid))) return;
  throw new LoopgateError(
    "INVALID_USAGE",
    `executor ${self.executorId} is already running (pid ${row.pid} on ${row.host}, last heartbeat ${row.silent_s.toFixed(1)} s ago): give each worker its own --executor${sameHost ? "" : ", or wait until its lease runs out"}`,
  );
}

/**
 * Writes this worker's heartbeat: the database's clock stamps it, so the machines' clocks need
 * not agree. The first one takes the move lock (see `MOVE_LOCK`), so a move in progress for this
 * executor id finishes before the worker launches DBOS and recovers its own workflows, and
 * refuses a twin (see `refuseTwin`).
 */
export async function beat(pool: pg.Pool, self: WorkerIdentity, first: boolean): Promise<void> {
  const upsert = `INSERT INTO loopgate.workers (executor_id, host, pid, app_version, lease_ms)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (executor_id) DO UPDATE SET host = $2, pid = $3, app_version = $4, lease_ms = $5,
      heartbeat_at = clock_timestamp(), stopped_at = NULL${first ? ", started_at = clock_timestamp()" : ""}`;
  const params = [self.executorId, self.host, self.pid, self.appVersion, self.leaseMs];
  if (!first) {
    await pool.query(upsert, params);
    return;
  }
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [MOVE_LOCK]);
    await refuseTwin(client, self);
    await client.query(upsert, params);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Says the worker stopped: what it still holds may move at once. */
export async function sayStopped(pool: pg.Pool, executorId: string): Promise<void> {
  await pool.query(
    "UPDATE loopgate.workers SET stopped_at = clock_timestamp() WHERE executor_id = $1",
    [executorId],
  );
}

/** An executor's row, or undefined when it never beat. */
export async function workerRow(pool: pg.Pool, executorId: string): Promise<WorkerRow | undefined> {
  const found = await pool.query<{
    host: string;
    pid: number;
    app_version: string;
    lease_ms: number;
    silent_ms: number;
    stopped: boolean;
  }>(
    `SELECT host, pid, app_version, lease_ms, stopped_at IS NOT NULL AS stopped,
            (extract(epoch FROM clock_timestamp() - heartbeat_at) * 1000)::float8 AS silent_ms
       FROM loopgate.workers WHERE executor_id = $1`,
    [executorId],
  );
  const row = found.rows[0];
  return row === undefined
    ? undefined
    : {
        host: row.host,
        pid: row.pid,
        appVersion: row.app_version,
        leaseMs: row.lease_ms,
        silentMs: row.silent_ms,
        stopped: row.stopped,
      };
}
