import { migrateSystemDatabase } from "@dbos-inc/dbos-sdk/internal/system_database";
import { GlobalLogger } from "@dbos-inc/dbos-sdk/internal/telemetry/logs";
import type { DLogger } from "@dbos-inc/dbos-sdk";
import { LoopgateError } from "../../core/errors.js";
import { printableStoreUrl } from "../store-url.js";
import { connectCreating } from "./postgres-connection.js";
import { migrateLoopgateSchema, type SchemaMigration } from "./loopgate-schema.js";

/** What `db migrate` did to a PostgreSQL store. */
export interface StoreMigration {
  /** The database did not exist and was created. */
  readonly created: boolean;
  readonly loopgate: SchemaMigration;
}

/**
 * A DBOS logger that keeps DBOS's progress notes ("Running DBOS system database migrations…")
 * off loopgate's output and remembers its warnings, which name what went wrong.
 */
function quietLogger(warnings: string[]): DLogger {
  const note = (entry: unknown) => void warnings.push(String(entry));
  return { info: () => undefined, debug: () => undefined, warn: note, error: note };
}

/**
 * Creates or upgrades everything a PostgreSQL store needs, idempotently: the database itself
 * when missing, DBOS's system schema (`dbos`), then loopgate's tables (`loopgate`). Run once
 * before workers start: DBOS's own migrations race when several processes launch at once on a
 * fresh database. DBOS's migration is reached through its internal module because the public
 * `DBOS.migrate` prints to the console; the SDK's version is pinned exactly for that reason.
 */
export async function migratePostgresStore(url: string): Promise<StoreMigration> {
  const { client, created } = await connectCreating(url);
  try {
    const warnings: string[] = [];
    try {
      await migrateSystemDatabase(
        url,
        new GlobalLogger(undefined, { logger: quietLogger(warnings) }),
      );
    } catch (error) {
      throw new LoopgateError(
        "INVALID_USAGE",
        `cannot migrate DBOS's system schema in ${printableStoreUrl(url)}: ${[error instanceof Error ? error.message : String(error), ...warnings].join("; ")}`,
      );
    }
    return { created, loopgate: await migrateLoopgateSchema(client) };
  } finally {
    await client.end();
  }
}
