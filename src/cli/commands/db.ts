import { openLocatedJournal } from "../../runner/session.js";
import { printableStoreUrl, storeOf } from "../../runner/store-url.js";
import type { Command, Print } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { UsageError } from "../usage-error.js";

/** The actions of `loopgate db`. */
const ACTIONS = ["migrate", "upgrade-paused"];

/**
 * `loopgate db migrate`: creates or upgrades a store's schema, once, before runs use it.
 * `loopgate db upgrade-paused`: moves a PostgreSQL store's paused tasks to this loopgate's
 * workflow version.
 */
export const dbCommand: Command = {
  help: `Usage: loopgate db migrate [--store URL]
       loopgate db upgrade-paused --store postgres://…

Creates or upgrades the store's schema; running it again changes nothing. For
a PostgreSQL store (postgres://USER@HOST:PORT/DATABASE) it creates the
database when the server has none of that name, DBOS's system schema ("dbos")
and loopgate's tables ("loopgate"): run it once before workers start. For a
SQLite journal it creates the file or upgrades it to this loopgate's schema.

upgrade-paused moves every task of a PostgreSQL store that waits for an answer
under another application version (an older loopgate's workers) to this
loopgate's version, under the same workflow id: its workflow starts again from
the task's journal, to the same wait, and answers reach it as before. Tasks
that run, or wait for a fixed task file, are left to their version's workers.
Run it with the new loopgate. See docs/distributed.md#upgrading.

Options:
  --store URL  a journal path or sqlite:PATH, or postgres://…; default
               LOOPGATE_STORE, else the SQLite journal loopgate run would use
  --db PATH    the same as --store PATH

Exit codes: 0 migrated (or upgraded), 2 invalid arguments, a store URL loopgate cannot use
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
    if (action === undefined || !ACTIONS.includes(action)) {
      throw new UsageError(
        action === undefined
          ? `db: missing action: ${ACTIONS.join(" or ")} (see loopgate db --help)`
          : `db: unknown action ${JSON.stringify(action)}: the actions are ${ACTIONS.join(" and ")} (see loopgate db --help)`,
      );
    }
    const store = storeOf(`db ${action}`, values.store, values.db);
    if (action === "upgrade-paused") {
      if (store.kind !== "postgres") {
        throw new UsageError(
          "db upgrade-paused: a SQLite journal has no workflow versions: it needs --store postgres://…",
        );
      }
      return upgradePaused(store.url, stdout);
    }
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

/** `db upgrade-paused` on a PostgreSQL store: says which tasks moved to which version. */
async function upgradePaused(url: string, stdout: Print): Promise<number> {
  // Loaded only for PostgreSQL, as for migrate.
  const { openStore, quietPgWarning } = await import("../../runner/dbos/dbos-driver.js");
  const { upgradePausedTasks } = await import("../../runner/dbos/upgrade-paused.js");
  const { applicationVersion } = await import("../../runner/dbos/application-version.js");
  quietPgWarning();
  const store = await openStore(url);
  try {
    const upgraded = await upgradePausedTasks(store.journal, url);
    const tasks = upgraded.length === 1 ? "1 paused task" : `${upgraded.length} paused tasks`;
    const ids = upgraded.map((task) => `${task.workflowId} (was ${task.from})`).join(", ");
    stdout(`upgraded ${tasks} to ${applicationVersion()}${ids === "" ? "" : `: ${ids}`}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
