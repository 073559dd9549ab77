import { storeOf } from "../store-url.js";
import type { RunStore } from "./run-store.js";
import { openSqliteStore } from "./sqlite/sqlite-run-store.js";

/** A command's store options: `--store URL` and `--db PATH` (one of them, or neither). */
export interface StoreFlags {
  readonly store?: string | undefined;
  readonly db?: string | undefined;
}

/**
 * The store a command works on (`--store`, `--db`, `LOOPGATE_STORE`, else the SQLite journal
 * found as always; see `storeOf`), opened: a SQLite journal to `read` or `write` (`mustExist`:
 * refuse to create one), or a PostgreSQL store `db migrate` prepared.
 */
export async function openRunStore(
  command: string,
  flags: StoreFlags,
  access: "read" | "write",
  from: { readonly mustExist?: boolean } = {},
): Promise<RunStore> {
  const store = storeOf(command, flags.store, flags.db);
  if (store.kind === "sqlite") return openSqliteStore(store.path, access, from);
  // Loaded only for PostgreSQL: a command on a SQLite journal never pays for DBOS.
  const { openPostgresStore } = await import("./postgres/postgres-run-store.js");
  return openPostgresStore(store.url, flags.store === undefined ? "" : ` --store ${store.url}`);
}
