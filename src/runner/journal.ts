import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { LoopgateError } from "../core/errors.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import { fromWire, toWire } from "../wire/codec.js";

/** Default journal location, relative to the project directory. */
export const DEFAULT_JOURNAL_PATH = ".loopgate/journal.db";

/** Version of the tables below; a journal of another version is refused, never misread. */
const SCHEMA_VERSION = "1";

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
CREATE TABLE IF NOT EXISTS leases (
  scope TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
`;

/**
 * Columns added to `runs` after its first version, with their definitions. Added in place when
 * missing: an older loopgate reading the journal ignores them, so the schema version stays.
 */
const ADDED_RUN_COLUMNS = {
  // Runs journaled before `--concurrency` ran one task at a time.
  concurrency: "INTEGER NOT NULL DEFAULT 1",
} as const;

/** A run as journaled: the task file it was started from, validated, frozen for resumes. */
export interface RunRecord {
  readonly id: number;
  readonly createdAt: string;
  readonly taskFile: string;
  readonly baseDir: string;
  /** The task file's document as parsed when the run started. */
  readonly document: unknown;
  /** How many tasks the run works on at once (`run --concurrency`); a resume may override it. */
  readonly concurrency: number;
}

/** One journaled event with when it happened and the driver's notes (pid, host). */
export interface JournalEntry {
  readonly seq: number;
  readonly runId: number;
  readonly at: string;
  readonly event: LoopEvent;
  readonly meta: Readonly<Record<string, unknown>> | null;
}

interface RunRow {
  id: number;
  created_at: string;
  task_file: string;
  base_dir: string;
  document: string;
  concurrency: number;
}

interface EventRow {
  seq: number;
  run_id: number;
  at: string;
  body: string;
  meta: string | null;
}

function runOf(row: RunRow): RunRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    taskFile: row.task_file,
    baseDir: row.base_dir,
    document: JSON.parse(row.document) as unknown,
    concurrency: row.concurrency,
  };
}

function entryOf(row: EventRow): JournalEntry {
  return {
    seq: row.seq,
    runId: row.run_id,
    at: row.at,
    event: fromWire(JSON.parse(row.body)) as LoopEvent,
    meta: row.meta === null ? null : (JSON.parse(row.meta) as Record<string, unknown>),
  };
}

/**
 * The append-only journal of runs in an embedded SQLite database (WAL): every step result,
 * every decision with its complete input, every answer. State is never stored, only rebuilt.
 */
export class Journal {
  // Prepared once: preparing a statement costs more than running the insert.
  private readonly insert: Database.Statement;

  private constructor(
    /** The open database; leases share it. */
    readonly db: Database.Database,
    /** Where the database lives. */
    readonly path: string,
  ) {
    this.insert = db.prepare(
      `INSERT INTO events (run_id, at, type, task_id, iteration, effect_id, done_key, body, meta)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Opens (creating if needed) the journal at `path`. */
  static open(path: string): Journal {
    mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    // In WAL mode, NORMAL survives any crash of loopgate (kill -9 included) and skips an fsync per
    // event; only a power cut can lose the last events, and their steps then run again.
    db.pragma("synchronous = NORMAL");
    // Another runner's write transaction makes us wait, not fail.
    db.pragma("busy_timeout = 10000");
    db.pragma("foreign_keys = ON");
    db.transaction(() => {
      db.exec(SCHEMA);
      const columns = db.prepare("SELECT name FROM pragma_table_info('runs')").pluck().all();
      for (const [name, definition] of Object.entries(ADDED_RUN_COLUMNS)) {
        if (!columns.includes(name)) db.exec(`ALTER TABLE runs ADD COLUMN ${name} ${definition}`);
      }
      db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)").run(
        SCHEMA_VERSION,
      );
    }).immediate();
    const version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    if (version !== SCHEMA_VERSION) {
      db.close();
      throw new LoopgateError(
        "JOURNAL_VERSION",
        `${path}: journal schema version ${String(version)}, this loopgate reads ${SCHEMA_VERSION}`,
      );
    }
    return new Journal(db, path);
  }

  /** Records a new run of a task file, worked on `concurrency` tasks at a time; returns its id. */
  createRun(taskFile: string, baseDir: string, document: unknown, concurrency = 1): number {
    const result = this.db
      .prepare(
        `INSERT INTO runs (created_at, task_file, base_dir, document, concurrency)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(new Date().toISOString(), taskFile, baseDir, JSON.stringify(document), concurrency);
    return Number(result.lastInsertRowid);
  }

  /** The run with this id, if any. */
  run(id: number): RunRecord | undefined {
    const row = this.db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as RunRow | undefined;
    return row === undefined ? undefined : runOf(row);
  }

  /** Every run, oldest first. */
  runs(): RunRecord[] {
    return (this.db.prepare("SELECT * FROM runs ORDER BY id").all() as RunRow[]).map(runOf);
  }

  /** A run's events in the order they happened. */
  events(runId: number): JournalEntry[] {
    const rows = this.db
      .prepare("SELECT seq, run_id, at, body, meta FROM events WHERE run_id = ? ORDER BY seq")
      .all(runId) as EventRow[];
    return rows.map(entryOf);
  }

  /** Every event of every run, in the order they happened. */
  allEvents(): JournalEntry[] {
    const rows = this.db
      .prepare("SELECT seq, run_id, at, body, meta FROM events ORDER BY seq")
      .all() as EventRow[];
    return rows.map(entryOf);
  }

  /**
   * Appends an event. Refuses (JOURNAL_CONFLICT) an event whose effect was already carried
   * out: a second writer never records a step result, decision or answer twice.
   */
  append(runId: number, event: LoopEvent, meta: Record<string, unknown> | null = null): number {
    try {
      const result = this.insert.run(
        runId,
        new Date().toISOString(),
        event.type,
        event.taskId,
        event.iteration,
        event.effectId,
        event.type === "step-started" ? null : event.effectId,
        JSON.stringify(toWire(event)),
        meta === null ? null : JSON.stringify(meta),
      );
      return Number(result.lastInsertRowid);
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
        throw new LoopgateError(
          "JOURNAL_CONFLICT",
          `run ${runId}: ${event.type} for ${event.effectId} is already journaled (another runner?)`,
        );
      }
      throw error;
    }
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}
