import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { JournalError } from "./journal-error.js";
import { journalInMemory } from "./journal-file.js";

/** "loop" in ASCII: the SQLite application_id of every journal, which tells it from other files. */
export const APPLICATION_ID = 0x6c6f6f70;

/**
 * Version of the tables below. 2 stores long texts once, as blobs (see event-packing.ts); 3 keeps
 * each task's summary beside its events (`task_summaries`).
 */
export const SCHEMA_VERSION = "3";
/** Versions 1 and 2 are read as they are, and upgraded when a command first writes. */
const READABLE_VERSIONS = ["1", "2", SCHEMA_VERSION];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  task_file TEXT NOT NULL,
  base_dir TEXT NOT NULL,
  document TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  at TEXT NOT NULL,
  type TEXT NOT NULL,
  task_id TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  effect_id TEXT NOT NULL,
  -- The effect an event carries out; unique, so no step result, decision or answer is
  -- recorded twice, whoever writes. NULL for step-started: a step may start more than once.
  done_key TEXT,
  body TEXT NOT NULL,
  meta TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS events_done_once ON events(run_id, done_key);
CREATE INDEX IF NOT EXISTS events_by_task ON events(task_id, run_id);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
-- Long texts (a step's output, a diff), each stored once under its SHA-256; events refer to them.
CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS blobs_no_update BEFORE UPDATE ON blobs
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS blobs_no_delete BEFORE DELETE ON blobs
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
-- What status shows of each task of a run, written in the transaction of each of the task's
-- events; current while its events column is the number of the task's events (docs/runner.md).
CREATE TABLE IF NOT EXISTS task_summaries (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  task_id TEXT NOT NULL,
  events INTEGER NOT NULL,
  body TEXT NOT NULL,
  checksum TEXT NOT NULL,
  PRIMARY KEY (run_id, task_id)
);
CREATE TABLE IF NOT EXISTS leases (
  scope TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
`;

/** The meta key set while runs journaled before version 3 may still lack their task summaries. */
export const SUMMARIES_MISSING = "task_summaries_missing";

/** Columns added after a table's first version, with their definitions; added when missing. */
const ADDED_COLUMNS = {
  runs: {
    // Runs journaled before `--concurrency` ran one task at a time.
    concurrency: "INTEGER NOT NULL DEFAULT 1",
    // SHA-256 of the row's content, so damage to it is named; NULL in rows of version 1.
    checksum: "TEXT",
  },
  events: { checksum: "TEXT" },
} as const;

/** Creates or completes the tables, and marks the database as a journal of this version. */
export function installSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  for (const [table, added] of Object.entries(ADDED_COLUMNS)) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all();
    for (const [name, definition] of Object.entries(added)) {
      if (!columns.includes(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${definition}`);
    }
  }
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.prepare(
    `INSERT INTO meta (key, value) VALUES ('schema_version', ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  ).run(SCHEMA_VERSION);
}

/** An SQLite error code, when the error is one. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** SQLite's word that the file is damaged, as the journal error it is; other errors as they are. */
export function named(path: string, error: unknown): unknown {
  const code = sqliteCode(error) ?? "";
  if (code.startsWith("SQLITE_CORRUPT")) {
    return new JournalError(
      "JOURNAL_DAMAGED",
      `${path} is damaged: SQLite says "${(error as Error).message}" (loopgate doctor tells more)`,
    );
  }
  if (code === "SQLITE_NOTADB") {
    return new JournalError(
      "JOURNAL_FOREIGN",
      `${path} is not an SQLite database, so not a journal`,
    );
  }
  return error;
}

/**
 * Checks that the database is a loopgate journal this version reads, reading only, and returns
 * its schema version. Another application's database, or one without the journal's tables, is
 * refused before anything is written to it.
 */
export function identify(db: Database.Database, path: string): string {
  let applicationId: number;
  let tables: string[];
  try {
    applicationId = db.pragma("application_id", { simple: true }) as number;
    tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
  } catch (error) {
    throw named(path, error);
  }
  // 0: not set, as in journals of schema version 1; any other id is another application's.
  if (applicationId !== APPLICATION_ID && applicationId !== 0) {
    throw new JournalError(
      "JOURNAL_FOREIGN",
      `${path} is another application's SQLite database (application_id 0x${applicationId.toString(16)}), not a loopgate journal`,
    );
  }
  const foreign = (why: string) =>
    new JournalError(
      "JOURNAL_FOREIGN",
      `${path} is an SQLite database but not a loopgate journal (${why})`,
    );
  if (!["meta", "runs", "events"].every((table) => tables.includes(table))) {
    const shown = tables.slice(0, 5).map((table) => JSON.stringify(table));
    throw foreign(
      tables.length === 0
        ? "it has no tables"
        : `its tables are ${shown.join(", ")}${tables.length > 5 ? ", …" : ""}`,
    );
  }
  let version: unknown;
  try {
    version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
  } catch (error) {
    const damage = named(path, error);
    throw damage === error ? foreign("its meta table is not the journal's") : damage;
  }
  if (typeof version !== "string") throw foreign("its meta table has no schema_version");
  if (!READABLE_VERSIONS.includes(version)) {
    throw new JournalError(
      "JOURNAL_VERSION",
      `${path}: journal schema version ${version}, this loopgate reads ${READABLE_VERSIONS.slice(0, -1).join(", ")} and ${SCHEMA_VERSION}`,
    );
  }
  return version;
}

/** SQLite's quick_check of the whole file: "ok", or the first problem it found. */
export function quickCheck(db: Database.Database, pragma = "quick_check"): string {
  const first = String(db.pragma(pragma, { simple: true }));
  return first.replace("*** in database main ***", "").replace(/\s+/g, " ").trim();
}

/** Opens a journal for reading only: no write, no mode change, not even in a read-only directory. */
export function openForReading(path: string): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    db.pragma("application_id");
    return db;
  } catch (error) {
    db.close();
    // A WAL database needs its shared-memory file, which SQLite cannot create here.
    const code = sqliteCode(error);
    if (code === "SQLITE_READONLY_DIRECTORY" || code === "SQLITE_CANTOPEN") {
      return journalInMemory(path);
    }
    throw named(path, error);
  }
}

/** Refuses a journal the commands that write may not write. */
export function assertWritable(path: string): void {
  for (const target of [path, dirname(path)]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      throw new JournalError(
        "JOURNAL_ACCESS",
        `${path} cannot be written here (${(error as NodeJS.ErrnoException).code ?? "denied"} on ${target}): run, resume and answer write to the journal; status, history, explain, export and doctor only read it`,
      );
    }
  }
}

/**
 * SQLite's page cache of the writing connection, in KiB. better-sqlite3 builds SQLite with
 * 16,000 KiB, which a journal of a few thousand tasks fills and `run` then holds (6 to 20 MiB
 * of its peak RSS at 5,000 tasks), though a run touches little of the file: the last pages of
 * the events table and the index pages of the tasks in flight, which fit here (docs/runner.md,
 * what `run` keeps in memory).
 */
export const WRITER_CACHE_KIB = 2000;

/**
 * Makes an identified journal ready for writing: its page cache set first, so the integrity check
 * reading the whole file does not fill a larger one, then SQLite's integrity check, so a damaged
 * journal is refused before a write, then WAL mode, then the schema of this version.
 */
export function prepareForWriting(db: Database.Database, path: string, version: string): void {
  db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
  const integrity = quickCheck(db);
  if (integrity !== "ok") {
    throw new JournalError(
      "JOURNAL_DAMAGED",
      `${path} fails SQLite's integrity check (${integrity}); nothing was written to it (loopgate doctor tells more)`,
    );
  }
  db.pragma("journal_mode = WAL");
  // In WAL mode, NORMAL survives any crash of loopgate (kill -9 included) and skips an fsync per
  // event; only a power cut can lose the last events, and their steps then run again.
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  if (
    version !== SCHEMA_VERSION ||
    db.pragma("application_id", { simple: true }) !== APPLICATION_ID
  ) {
    db.transaction(() => {
      installSchema(db);
      // The runs journaled before version 3 have no task summaries yet: see rebuild-summaries.ts.
      if (version === "1" || version === "2") {
        db.prepare(
          `INSERT INTO meta (key, value) VALUES ('${SUMMARIES_MISSING}', '1') ON CONFLICT(key) DO NOTHING`,
        ).run();
      }
    }).immediate();
  }
}
