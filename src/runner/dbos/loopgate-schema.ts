import type pg from "pg";
import { LoopgateError } from "../../core/errors.js";

/** The PostgreSQL schema that holds loopgate's own tables, beside DBOS's `dbos` schema. */
export const LOOPGATE_SCHEMA = "loopgate";

/**
 * The schema's versions, oldest first: version N is the first N entries applied. A step is never
 * edited once released; a change is a new step. Events are `json`, not `jsonb`, so they read back
 * as written, keys in order.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE loopgate.runs (
     run_id bigserial PRIMARY KEY,
     task_file text NOT NULL,
     base_dir text NOT NULL,
     document json NOT NULL,
     concurrency integer,
     created_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE loopgate.events (
     seq bigserial PRIMARY KEY,
     run_id bigint NOT NULL REFERENCES loopgate.runs,
     task_id text NOT NULL,
     task_seq integer NOT NULL,
     type text NOT NULL,
     effect_id text NOT NULL,
     event json NOT NULL,
     meta json,
     at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (run_id, task_id, task_seq)
   );`,
  // Version 2: the workers' heartbeats. A worker's tasks move to a live worker once its
  // heartbeat is older than the lease it declared, or at once when it stopped (docs/distributed.md).
  `CREATE TABLE loopgate.workers (
     executor_id text PRIMARY KEY,
     host text NOT NULL,
     pid integer NOT NULL,
     app_version text NOT NULL,
     lease_ms integer NOT NULL,
     started_at timestamptz NOT NULL DEFAULT now(),
     heartbeat_at timestamptz NOT NULL DEFAULT now(),
     stopped_at timestamptz
   );`,
];

/** The version `migrateLoopgateSchema` brings a database to. */
export const LOOPGATE_SCHEMA_VERSION = MIGRATIONS.length;

/** The schema's version before and after a migration. */
export interface SchemaMigration {
  readonly from: number;
  readonly to: number;
}

/**
 * Creates or upgrades loopgate's tables in one transaction, under an advisory lock so that two
 * migrations at once apply each step once. A database of a newer version is refused, unchanged.
 */
export async function migrateLoopgateSchema(client: pg.ClientBase): Promise<SchemaMigration> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('loopgate schema'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${LOOPGATE_SCHEMA}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${LOOPGATE_SCHEMA}.schema_version (version integer NOT NULL)`,
    );
    const row = await client.query<{ version: number }>(
      `SELECT version FROM ${LOOPGATE_SCHEMA}.schema_version`,
    );
    const from = row.rows[0]?.version ?? 0;
    if (from > MIGRATIONS.length) {
      throw new LoopgateError(
        "INVALID_USAGE",
        `loopgate's tables in this database are of schema version ${from}, newer than this loopgate's ${MIGRATIONS.length}: upgrade loopgate`,
      );
    }
    for (const step of MIGRATIONS.slice(from)) await client.query(step);
    if (row.rows.length === 0) {
      await client.query(`INSERT INTO ${LOOPGATE_SCHEMA}.schema_version (version) VALUES ($1)`, [
        MIGRATIONS.length,
      ]);
    } else {
      await client.query(`UPDATE ${LOOPGATE_SCHEMA}.schema_version SET version = $1`, [
        MIGRATIONS.length,
      ]);
    }
    await client.query("COMMIT");
    return { from, to: MIGRATIONS.length };
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
