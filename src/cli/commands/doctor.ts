import { EXIT_JOURNAL_DAMAGED } from "../../runner/journal-error.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import { toWire } from "../../wire/codec.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";

/** `loopgate doctor`: the store's state, read without changing it. */
export const doctorCommand: Command = {
  help: `Usage: loopgate doctor [--store URL | --db PATH] [--full] [--json]

Examines the store without changing it. A SQLite journal: its schema, its
size, SQLite's integrity check, and every run, event and stored text read back
and checked against its checksum. A PostgreSQL store: the server, loopgate's
schema, the workers (live, silent past their lease, stopped), DBOS's task
workflows by state (those a silent executor holds or another application
version waits with are named), every task's story checked for holes. On both,
every run is folded through the loop; each damaged run or event is named.

Options:
${storeHelp(14)}
  --full      SQLite's integrity_check (indexes too; slower) instead of
              quick_check; nothing more on PostgreSQL
  --json      print JSON

Exit codes: 0 healthy, 5 damaged, 2 invalid arguments, no journal, or not a
loopgate journal, 1 internal error.
`,
  async run({ args, stdout }) {
    const { values } = parseOptions(
      "doctor",
      args,
      { ...STORE_OPTIONS, full: { type: "boolean" }, json: { type: "boolean" } },
      0,
    );
    const store = await openRunStore("doctor", values, "read");
    try {
      const health = await store.health(values.full === true);
      const report = health.findings.map(([label, text]) => `${label.padEnd(10)}${text}\n`);
      stdout(
        values.json === true
          ? `${JSON.stringify(toWire(health.data), null, 2)}\n`
          : report.join(""),
      );
      return health.healthy ? 0 : EXIT_JOURNAL_DAMAGED;
    } finally {
      await store.close();
    }
  },
};
