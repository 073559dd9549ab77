import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import { toWire } from "../../wire/codec.js";

/** The tables of schema version 1, before `runs.concurrency`, as loopgate 0.1 created them. */
const VERSION_1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '1');
CREATE TABLE runs (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, task_file TEXT NOT NULL,
  base_dir TEXT NOT NULL, document TEXT NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id INTEGER NOT NULL REFERENCES runs(id),
  at TEXT NOT NULL, type TEXT NOT NULL, task_id TEXT NOT NULL, iteration INTEGER NOT NULL,
  effect_id TEXT NOT NULL, done_key TEXT, body TEXT NOT NULL, meta TEXT);
CREATE UNIQUE INDEX events_done_once ON events(run_id, done_key);
CREATE INDEX events_by_task ON events(task_id, run_id);
CREATE TABLE leases (scope TEXT PRIMARY KEY, owner TEXT NOT NULL, pid INTEGER NOT NULL,
  host TEXT NOT NULL, heartbeat_at INTEGER NOT NULL);
`;

/**
 * Writes a journal of schema version 1 at `path`, in WAL mode as loopgate 0.1 left it: one run
 * of `document` with `events`, each body in full.
 */
export function writeVersion1Journal(
  path: string,
  document: unknown,
  events: readonly LoopEvent[],
): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.exec(VERSION_1);
  db.prepare(
    "INSERT INTO runs VALUES (1, '2025-01-01T00:00:00.000Z', '/p/loopgate.yaml', '/p', ?)",
  ).run(JSON.stringify(document));
  const insert = db.prepare(
    `INSERT INTO events (run_id, at, type, task_id, iteration, effect_id, done_key, body, meta)
     VALUES (1, '2025-01-01T00:00:01.000Z', ?, ?, ?, ?, ?, ?, NULL)`,
  );
  for (const event of events) {
    const doneKey = event.type === "step-started" ? null : event.effectId;
    insert.run(
      event.type,
      event.taskId,
      event.iteration,
      event.effectId,
      doneKey,
      JSON.stringify(toWire(event)),
    );
  }
  db.close();
}
