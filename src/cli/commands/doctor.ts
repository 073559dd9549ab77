import { EXIT_JOURNAL_DAMAGED } from "../../runner/journal-error.js";
import { healthy, journalHealth, type JournalHealth } from "../../runner/journal-health.js";
import { APPLICATION_ID } from "../../runner/journal-database.js";
import { openJournal } from "../../runner/session.js";
import { toWire } from "../../wire/codec.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";

/** Bytes as a person reads them: 1.5 MiB. */
function size(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The report, one labelled line per finding. */
function report(health: JournalHealth): string {
  const schema =
    health.schemaVersion === "1"
      ? "1 (written by loopgate 0.1; upgraded when loopgate next writes to it)"
      : `${health.schemaVersion} (application_id 0x${health.applicationId.toString(16)}${health.applicationId === APPLICATION_ID ? ", loopgate's" : ""})`;
  const lines = [
    ["journal", health.path],
    ["schema", schema],
    [
      "size",
      `${size(health.bytes.database + health.bytes.wal)} (database ${size(health.bytes.database)}, write-ahead log ${size(health.bytes.wal)})`,
    ],
    [
      "integrity",
      `${health.integrity.result} (SQLite ${health.integrity.check}, ${health.integrity.ms} ms)`,
    ],
    ["runs", String(health.runs)],
    ["events", String(health.events)],
    ["blobs", `${health.blobs.count} long texts stored once, ${size(health.blobs.bytes)}`],
    ...health.damaged.map((message) => ["damaged", message]),
    [
      "state",
      healthy(health)
        ? "healthy"
        : "damaged: status, history and export leave out what cannot be read; run and resume refuse a journal failing the integrity check, and a damaged run cannot be resumed or answered",
    ],
  ];
  return lines.map(([label, text]) => `${(label ?? "").padEnd(10)}${text ?? ""}\n`).join("");
}

/** `loopgate doctor`: the journal's state, read without changing it. */
export const doctorCommand: Command = {
  help: `Usage: loopgate doctor [--db PATH] [--full] [--json]

Examines the journal without changing it: its schema, its size, SQLite's
integrity check, and every run, event and stored text read back and checked
against its checksum. Names each damaged run or event.

Options:
  --db PATH   the journal (default: LOOPGATE_DB, else the first
              .loopgate/journal.db here or above)
  --full      SQLite's integrity_check (indexes too; slower) instead of quick_check
  --json      print JSON

Exit codes: 0 healthy, 5 damaged, 2 invalid arguments, no journal, or not a
loopgate journal, 1 internal error.
`,
  async run({ args, stdout }) {
    const { values } = parseOptions(
      "doctor",
      args,
      { db: { type: "string" }, full: { type: "boolean" }, json: { type: "boolean" } },
      0,
    );
    const journal = openJournal(values.db, "read");
    try {
      const health = journalHealth(journal, values.full === true);
      stdout(
        values.json === true
          ? `${JSON.stringify(toWire({ ...health, healthy: healthy(health) }), null, 2)}\n`
          : report(health),
      );
      return healthy(health) ? 0 : EXIT_JOURNAL_DAMAGED;
    } finally {
      journal.close();
    }
  },
};
