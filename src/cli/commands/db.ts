import { openLocatedJournal } from "../../runner/session.js";
import { printableStoreUrl, storeOf } from "../../runner/store-url.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { UsageError } from "../usage-error.js";

/** `loopgate db migrate`: creates or upgrades a store's schema, once, before runs use it. */
export const dbCommand: Command = {
  help: `Usage: loopgate db migrate [--store URL]

Creates or upgrades the store's schema; running it again changes nothing. For
a PostgreSQL store (postgres://USER@HOST:PORT/DATABASE) it creates the
database when the server has none of that name, DBOS's system schema ("dbos")
and loopgate's tables ("loopgate"): run it once before workers start. For a
SQLite journal it creates the file or upgrades it to this loopgate's schema.
See docs/distributed.md.

Options:
  --store URL  a journal path or sqlite:PATH, or postgres://…; default
               LOOPGATE_STORE, else the SQLite journal loopgate run would use
  --db PATH    the same as --store PATH

Exit codes: 0 migrated, 2 invalid arguments, a store URL loopgate cannot use
or a server it cannot reach (nothing is changed), 1 internal error.
`,
  async run({ args, stdout }) {
    const { values, positionals } = parseOptions(
      "db",
      args,
      { store: { type: "string" }, db: { type: "string" } },
      1,
    );
    const action = positionals[0];
    if (action !== "migrate") {
      throw new UsageError(
        action === undefined
          ? "db: missing action: migrate (see loopgate db --help)"
          : `db: unknown action ${JSON.stringify(action)}: the one action is migrate (see loopgate db --help)`,
      );
    }
    const store = storeOf("db migrate", values.store, values.db);
    if (store.kind === "postgres") {
      // Loaded only for PostgreSQL: a SQLite journal never pays for DBOS.
      const { migratePostgresStore } = await import("../../runner/dbos/migrate-store.js");
      const done = await migratePostgresStore(store.url);
      const { from, to } = done.loopgate;
      stdout(
        `migrated ${printableStoreUrl(store.url)}: ${done.created ? "database created, " : ""}DBOS system schema ready, loopgate schema version ${to}${from === to ? " (up to date)" : ` (was ${from})`}\n`,
      );
      return 0;
    }
    const { journal } = openLocatedJournal(store.path, "write");
    try {
      stdout(`migrated SQLite journal ${journal.path} (schema version ${journal.version} found)\n`);
    } finally {
      journal.close();
    }
    return 0;
  },
};
