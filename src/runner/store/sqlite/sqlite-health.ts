import { APPLICATION_ID } from "../../journal-database.js";
import { healthy, journalHealth } from "../../journal-health.js";
import type { Journal } from "../../journal.js";
import type { StoreHealth } from "../run-store.js";

/** Bytes as a person reads them: 1.5 MiB. */
function size(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * A SQLite journal's health (see `journalHealth`): its schema, size, SQLite's integrity check,
 * and every run, event and stored text read back against its checksum.
 */
export function sqliteHealth(journal: Journal, full: boolean): StoreHealth {
  const health = journalHealth(journal, full);
  const schema =
    health.schemaVersion === "1"
      ? "1 (written by loopgate 0.1; upgraded when loopgate next writes to it)"
      : `${health.schemaVersion} (application_id 0x${health.applicationId.toString(16)}${health.applicationId === APPLICATION_ID ? ", loopgate's" : ""})`;
  const good = healthy(health);
  const findings: [string, string][] = [
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
    ...health.damaged.map((message): [string, string] => ["damaged", message]),
    [
      "state",
      good
        ? "healthy"
        : "damaged: status, history and export leave out what cannot be read; run and resume refuse a journal failing the integrity check, and a damaged run cannot be resumed or answered",
    ],
  ];
  return { findings, healthy: good, data: { ...health, healthy: good } };
}
