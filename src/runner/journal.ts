import Database from "better-sqlite3";
import { LoopgateError } from "../core/errors.js";
import type { Attempt } from "../core/iteration-check.js";
import { planTaskOf, taskStateOf } from "../core/loop/effects-of.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { taskBriefOf, type TaskBrief } from "../core/loop/task-brief.js";
import { fromWire, toWire } from "../wire/codec.js";
import { packEvent, sha256, unpackEvent, type HistoryBase } from "./event-packing.js";
import { JournalError } from "./journal-error.js";
import {
  assertWritable,
  identify,
  installSchema,
  named,
  openForReading,
  prepareForWriting,
  quickCheck,
  SCHEMA_VERSION,
  sqliteCode,
  SUMMARIES_MISSING,
} from "./journal-database.js";
import {
  compareMarks,
  createJournalFile,
  journalFileExists,
  journalMarks,
  type JournalMarks,
} from "./journal-file.js";

/** Default journal location, relative to the project directory. */
export const DEFAULT_JOURNAL_PATH = ".loopgate/journal.db";

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

/** One stored event read back: the entry, or why it cannot be read (the other events can be). */
export type EventRead =
  | { readonly ok: true; readonly entry: JournalEntry }
  | {
      readonly ok: false;
      readonly runId: number;
      readonly seq: number;
      readonly error: JournalError;
    };

interface RunRow {
  id: number;
  created_at: string;
  task_file: string;
  base_dir: string;
  document: string;
  /** Absent in journals of version 1 read as they are (not upgraded). */
  concurrency?: number;
  checksum?: string | null;
}

/** An event's row, as written. */
interface EventRow {
  run_id: number;
  at: string;
  type: string;
  task_id: string;
  iteration: number;
  effect_id: string;
  body: string;
  meta: string | null;
}

/** An event's row, as read. */
interface StoredEventRow extends EventRow {
  seq: number;
  checksum: string | null;
}

/** A task summary's row, as read. */
interface SummaryRow {
  task_id: string;
  events: number;
  body: string;
  checksum: string;
}

/** SHA-256 of what a task summary's row holds. */
function summaryChecksum(runId: number, taskId: string, events: number, body: string): string {
  return sha256(JSON.stringify([runId, taskId, events, body]));
}

/** SHA-256 of what a run's row holds. */
function runChecksum(row: Omit<RunRow, "id" | "checksum">): string {
  // Only rows of version 2 have a checksum, and all of them a concurrency.
  return sha256(
    JSON.stringify([row.created_at, row.task_file, row.base_dir, row.document, row.concurrency]),
  );
}

/** SHA-256 of what an event's row holds (its sequence number and done key aside). */
function eventChecksum(row: EventRow): string {
  return sha256(
    JSON.stringify([
      row.run_id,
      row.at,
      row.type,
      row.task_id,
      row.iteration,
      row.effect_id,
      row.body,
      row.meta,
    ]),
  );
}

/** An event that cannot be read back, named with its run, its place and what is wrong. */
function damagedEvent(row: StoredEventRow, why: string): JournalError {
  const what = `event ${row.seq} (${row.type} of task ${JSON.stringify(row.task_id)})`;
  return damagedRun(row.run_id, `${what}: ${why}`);
}

/** A run that cannot be read back, named with what is wrong. */
export function damagedRun(runId: number, why: string): JournalError {
  return new JournalError("JOURNAL_DAMAGED", `run ${runId} is damaged: ${why}`);
}

function runOf(row: RunRow): RunRecord {
  const checksum = row.checksum ?? null;
  if (checksum !== null && checksum !== runChecksum(row)) {
    throw damagedRun(row.id, "its row does not match its checksum");
  }
  let document: unknown;
  try {
    document = JSON.parse(row.document);
  } catch {
    throw damagedRun(row.id, "its task file document is not JSON");
  }
  return {
    id: row.id,
    createdAt: row.created_at,
    taskFile: row.task_file,
    baseDir: row.base_dir,
    document,
    concurrency: row.concurrency ?? 1,
  };
}

/** What one read of events knows so far: blobs already read, decisions later ones may extend. */
interface ReadPass {
  readonly blobs: Map<string, string>;
  readonly decisions: Map<number, { runId: number; taskId: string; history: readonly Attempt[] }>;
}

/** An event to journal, with its task's summary after it (status reads it, see `taskBriefs`). */
export interface JournaledEvent {
  readonly event: LoopEvent;
  readonly meta: Record<string, unknown> | null;
  /** What status shows of the task once the event is applied; called only for a task's latest event. */
  readonly brief?: () => TaskBrief;
}

/** What a batch's transaction added: remembered by the journal only once it committed. */
interface WrittenBatch {
  readonly seqs: number[];
  readonly decided: ReadonlyMap<string, HistoryBase>;
  readonly added: ReadonlySet<string>;
}

/** Runs an event's insert, naming a second event for the same effect as the conflict it is. */
function conflictNamed(runId: number, event: LoopEvent, insert: () => number): number {
  try {
    return insert();
  } catch (error) {
    if (sqliteCode(error) === "SQLITE_CONSTRAINT_UNIQUE") {
      throw new LoopgateError(
        "JOURNAL_CONFLICT",
        `run ${runId}: ${event.type} for ${event.effectId} is already journaled (another runner?)`,
      );
    }
    throw error;
  }
}

/** Where the journal remembers a task's latest decision. */
function decisionKey(runId: number, taskId: string): string {
  return `${runId}\0${taskId}`;
}

/**
 * The append-only journal of runs in an embedded SQLite database (WAL): every step result,
 * every decision with its complete input, every answer. State is never stored, only rebuilt.
 * Long texts are stored once and a decision's input refers to the attempts the task's previous
 * decision already holds (event-packing.ts); reading gives every event back in full.
 */
export class Journal {
  /** Statements prepared once each, when first used: a journal of version 1 read as it is has no blobs table. */
  private readonly statements = new Map<string, Database.Statement>();
  /** Appends events, their blobs and their tasks' summaries in one transaction. */
  private readonly writeAll: (runId: number, events: readonly JournaledEvent[]) => WrittenBatch;
  /** Blobs known to be stored, so a text read by several decisions is not inserted again. */
  private readonly storedBlobs = new Set<string>();
  /** Each task's latest decision read or written: the next one's history extends it. */
  private readonly latestDecisions = new Map<string, HistoryBase>();
  /** The journal's files as this process last left them; only a journal opened for writing. */
  private marks: JournalMarks | undefined;
  /** Someone else wrote to the files since the last integrity check. */
  private writtenByOthers = false;
  /** Set once the journal changed under this process: it is not written again. */
  private changed: JournalError | undefined;

  private constructor(
    /** The open database; leases share it. */
    readonly db: Database.Database,
    /** Where the database lives. */
    readonly path: string,
    /** The schema version the journal had when it was opened. */
    readonly version: string,
    writing: boolean,
  ) {
    const insertEvent = (row: EventRow): number => {
      const insert = this.statement(
        `INSERT INTO events (run_id, at, type, task_id, iteration, effect_id, done_key, body, meta, checksum)
         VALUES (@run_id, @at, @type, @task_id, @iteration, @effect_id, @done_key, @body, @meta, @checksum)`,
      );
      // A step start and a restore carry out nothing: the effect they name is still to be done.
      const done_key =
        row.type === "step-started" || row.type === "attempt-restored" ? null : row.effect_id;
      return Number(insert.run({ ...row, done_key, checksum: eventChecksum(row) }).lastInsertRowid);
    };
    this.writeAll = db.transaction((runId: number, events: readonly JournaledEvent[]) => {
      // What this transaction adds is remembered only once it commits (see `appendAll`).
      const decided = new Map<string, HistoryBase>();
      const added = new Set<string>();
      const briefs = new Map<string, () => TaskBrief>();
      const seqs = events.map(({ event, meta, brief }) => {
        const key = decisionKey(runId, event.taskId);
        const decision = event.type === "decision-recorded";
        const base = decision ? (decided.get(key) ?? this.latestDecisions.get(key)) : undefined;
        const packed = packEvent(event, base);
        for (const [hash, text] of packed.blobs) {
          if (this.storedBlobs.has(hash) || added.has(hash)) continue;
          this.statement("INSERT OR IGNORE INTO blobs (hash, text) VALUES (?, ?)").run(hash, text);
          added.add(hash);
        }
        const seq = conflictNamed(runId, event, () =>
          insertEvent({
            run_id: runId,
            at: new Date().toISOString(),
            type: event.type,
            task_id: event.taskId,
            iteration: event.iteration,
            effect_id: event.effectId,
            body: packed.body,
            meta: meta === null ? null : JSON.stringify(meta),
          }),
        );
        if (decision) decided.set(key, { seq, history: event.input.iterationCheck.history ?? [] });
        // A task's summary is its latest event's: the events before it in the batch need none.
        if (brief !== undefined) briefs.set(event.taskId, brief);
        else briefs.delete(event.taskId);
        return seq;
      });
      for (const [taskId, brief] of briefs) this.recordSummary(runId, taskId, brief());
      return { seqs, decided, added };
    });
    if (writing) this.marks = journalMarks(path);
  }

  /** The statement for `sql`, prepared the first time. */
  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * Opens the journal at `path`. Checks come before any write or mode change: an empty file,
   * another application's database or a newer schema is refused, and so, for writing, is a
   * journal failing SQLite's integrity check. For writing, a missing journal is created; for
   * reading (`readonly`), nothing is created or changed, and a missing journal is an error.
   */
  static open(path: string, options: { readonly readonly?: boolean } = {}): Journal {
    try {
      return Journal.openFile(path, options.readonly === true);
    } catch (error) {
      // The file system's refusal (no permission, a read-only mount, a file for a directory).
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== "string" || !/^E[A-Z]+$/.test(code)) throw error;
      throw new JournalError("JOURNAL_ACCESS", `${path} cannot be opened (${code})`);
    }
  }

  private static openFile(path: string, reading: boolean): Journal {
    if (!journalFileExists(path)) {
      if (reading) {
        throw new JournalError("JOURNAL_MISSING", `no journal at ${path} (loopgate run makes one)`);
      }
      createJournalFile(path, installSchema);
    }
    if (!reading) assertWritable(path);
    const db = reading
      ? openForReading(path)
      : new Database(path, { fileMustExist: true, timeout: 10_000 });
    try {
      const version = identify(db, path);
      if (!reading) prepareForWriting(db, path, version);
      return new Journal(db, path, version, !reading);
    } catch (error) {
      db.close();
      throw named(path, error);
    }
  }

  /** Whether the journal is still as this process left it; false once it changed under it. */
  get intact(): boolean {
    return this.changed === undefined;
  }

  /** Stops the run on a change to the files no SQLite writer makes, and notes others' writes. */
  private checkFiles(during: string): void {
    if (this.changed !== undefined) throw this.changed;
    if (this.marks === undefined) return;
    const now = journalMarks(this.path);
    const { broken, written } = compareMarks(this.path, this.marks, now);
    if (broken !== undefined) this.stop(broken, during);
    this.writtenByOthers ||= written;
    this.marks = now;
  }

  private stop(what: string, during: string): never {
    this.changed = new JournalError(
      "JOURNAL_CHANGED",
      `${what} while ${during}; the run stops and writes nothing more to it (steps must leave the journal alone)`,
    );
    throw this.changed;
  }

  /**
   * Checks, after a step of run `runId` ran (`during` says which), that the journal is as the
   * runner left it: its files not removed, replaced or shrunk, and — when anyone else wrote to
   * them meanwhile — the journal, read afresh, still loopgate's, passing SQLite's quick_check, and
   * the run's rows matching their checksums. Throws JOURNAL_CHANGED otherwise.
   */
  checkUnchanged(during: string, runId: number): void {
    this.checkFiles(during);
    if (!this.writtenByOthers) return;
    const problem = this.problemOnDisk(runId);
    if (problem !== undefined) this.stop(problem, during);
    this.writtenByOthers = false;
  }

  /** What is wrong with the journal as a fresh connection reads it, past this process's cache. */
  private problemOnDisk(runId: number): string | undefined {
    let fresh: Journal | undefined;
    try {
      fresh = Journal.open(this.path, { readonly: true });
      const integrity = quickCheck(fresh.db);
      if (integrity !== "ok") return `${this.path} fails SQLite's integrity check (${integrity})`;
      fresh.run(runId);
      const damaged = fresh.readEvents(runId).find((read) => !read.ok);
      return damaged === undefined || damaged.ok
        ? undefined
        : `${this.path}: ${damaged.error.message}`;
    } catch (error) {
      return `${this.path} cannot be read back (${(error as Error).message})`;
    } finally {
      fresh?.close();
    }
  }

  /**
   * Runs a write (an event, a run, a lease), once sure the files are still the ones opened;
   * `what` names the write for the error when they are not.
   */
  write<T>(action: () => T, what = "the journal was being written"): T {
    if (this.marks === undefined) {
      throw new JournalError("JOURNAL_ACCESS", `${this.path} was opened for reading only`);
    }
    this.checkFiles(what);
    try {
      return action();
    } catch (error) {
      throw named(this.path, error);
    } finally {
      // A step runs beside this write (its step-started event, a lease's renewal): a cut made
      // during it is checked for here, not taken for the files' new marks.
      if (this.marks !== undefined) this.settleMarks(what);
    }
  }

  /** Takes the files' marks after this process's own write, stopping on a change no write makes. */
  private settleMarks(during: string): void {
    const now = journalMarks(this.path);
    const { broken } = compareMarks(this.path, this.marks ?? now, now);
    this.marks = now;
    if (broken !== undefined) this.stop(broken, during);
  }

  /** Records a new run of a task file, worked on `concurrency` tasks at a time; returns its id. */
  createRun(taskFile: string, baseDir: string, document: unknown, concurrency = 1): number {
    const row = {
      created_at: new Date().toISOString(),
      task_file: taskFile,
      base_dir: baseDir,
      document: JSON.stringify(document),
      concurrency,
    };
    const result = this.write(() =>
      this.statement(
        `INSERT INTO runs (created_at, task_file, base_dir, document, concurrency, checksum)
         VALUES (@created_at, @task_file, @base_dir, @document, @concurrency, @checksum)`,
      ).run({ ...row, checksum: runChecksum(row) }),
    );
    return Number(result.lastInsertRowid);
  }

  /**
   * Replaces a run's journaled task file (`resume --task-file`, its steps fixed); the caller has
   * checked that the loop it describes is the same, so every event still folds.
   */
  replaceDocument(runId: number, document: unknown): void {
    const row = this.read(
      () => this.statement("SELECT * FROM runs WHERE id = ?").get(runId) as RunRow | undefined,
    );
    if (row === undefined) throw new LoopgateError("INVALID_USAGE", `no run ${runId}`);
    const next = { ...row, document: JSON.stringify(document), concurrency: row.concurrency ?? 1 };
    this.write(() =>
      this.statement("UPDATE runs SET document = ?, checksum = ? WHERE id = ?").run(
        next.document,
        runChecksum(next),
        runId,
      ),
    );
  }

  /** The run with this id, if any; JOURNAL_DAMAGED when its row cannot be read back. */
  run(id: number): RunRecord | undefined {
    const row = this.read(
      () => this.statement("SELECT * FROM runs WHERE id = ?").get(id) as RunRow | undefined,
    );
    return row === undefined ? undefined : runOf(row);
  }

  /** The ids of every run, oldest first, whether or not the run can be read. */
  runIds(): number[] {
    return this.read(() =>
      this.db.prepare("SELECT id FROM runs ORDER BY id").pluck().all(),
    ) as number[];
  }

  /** The ids of the runs that journaled an event of `taskId`, oldest first, through the task index. */
  runIdsWithTask(taskId: string): number[] {
    return this.read(() =>
      this.statement("SELECT DISTINCT run_id FROM events WHERE task_id = ? ORDER BY run_id")
        .pluck()
        .all(taskId),
    ) as number[];
  }

  /**
   * The ids of the runs whose document holds `value` at the JSON path `path` (a Stop-hook
   * session's id), oldest first; a run whose document is not JSON is not one of them.
   */
  runIdsWithDocumentValue(path: string, value: string): number[] {
    return this.read(() =>
      this.statement(
        "SELECT id FROM runs WHERE CASE WHEN json_valid(document) THEN json_extract(document, ?) END = ? ORDER BY id",
      )
        .pluck()
        .all(path, value),
    ) as number[];
  }

  /**
   * A run's events in the order they happened, or only `taskId`'s (read through the task index);
   * JOURNAL_DAMAGED at the first that cannot be read.
   */
  events(runId: number, taskId?: string): JournalEntry[] {
    return this.readEvents(runId, taskId).map((read) => {
      if (!read.ok) throw read.error;
      return read.entry;
    });
  }

  /**
   * Every event of a run, or of every run, in the order they happened, each read back in full
   * or named as damaged: a damaged event (or one referring to a damaged one) leaves the others
   * readable. With `taskId`, only that task's events of the run, found through the index
   * `events_by_task` without reading the others: a decision's history refers only to earlier
   * decisions of its own task, so they read back in full.
   */
  readEvents(runId?: number, taskId?: string): EventRead[] {
    const pass: ReadPass = { blobs: new Map(), decisions: new Map() };
    // A journal of version 1, read as it is, has no checksums.
    const checksum = this.version === "1" ? "NULL AS checksum" : "checksum";
    const columns = `seq, run_id, at, type, task_id, iteration, effect_id, body, meta, ${checksum}`;
    const reads = this.read(() => {
      const rows =
        runId === undefined
          ? this.db.prepare(`SELECT ${columns} FROM events ORDER BY seq`).iterate()
          : taskId === undefined
            ? this.db
                .prepare(`SELECT ${columns} FROM events WHERE run_id = ? ORDER BY seq`)
                .iterate(runId)
            : this.db
                .prepare(
                  `SELECT ${columns} FROM events WHERE task_id = ? AND run_id = ? ORDER BY seq`,
                )
                .iterate(taskId, runId);
      const out: EventRead[] = [];
      for (const row of rows as Iterable<StoredEventRow>) out.push(this.decode(row, pass));
      return out;
    });
    for (const [seq, decision] of pass.decisions) {
      const history = decision.history;
      this.latestDecisions.set(decisionKey(decision.runId, decision.taskId), { seq, history });
    }
    return reads;
  }

  /** Runs a read, SQLite's damage reported as the journal's. */
  private read<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      throw named(this.path, error);
    }
  }

  /** A stored blob's text, checked against its hash. */
  private blob(hash: string, pass: ReadPass): string {
    const known = pass.blobs.get(hash);
    if (known !== undefined) return known;
    const text = this.statement("SELECT text FROM blobs WHERE hash = ?").pluck().get(hash) as
      string | undefined;
    const short = `${hash.slice(0, 12)}…`;
    if (text === undefined)
      throw new JournalError("JOURNAL_DAMAGED", `its blob ${short} is missing`);
    if (sha256(text) !== hash) {
      throw new JournalError("JOURNAL_DAMAGED", `its blob ${short} does not match its hash`);
    }
    pass.blobs.set(hash, text);
    this.storedBlobs.add(hash);
    return text;
  }

  /** One event's row read back in full, or why it cannot be. */
  private decode(row: StoredEventRow, pass: ReadPass): EventRead {
    try {
      if (row.checksum !== null && row.checksum !== eventChecksum(row)) {
        throw new JournalError("JOURNAL_DAMAGED", "it does not match its checksum");
      }
      const event = unpackEvent(row.body, {
        blob: (hash) => this.blob(hash, pass),
        history: (seq, decision) => {
          const base = pass.decisions.get(seq);
          if (base?.runId !== row.run_id || base.taskId !== decision.taskId || seq >= row.seq) {
            throw new JournalError(
              "JOURNAL_DAMAGED",
              `its history refers to event ${seq}, which is not a readable earlier decision of its task`,
            );
          }
          return base.history;
        },
      });
      if (
        event.type !== row.type ||
        event.taskId !== row.task_id ||
        event.effectId !== row.effect_id ||
        event.iteration !== row.iteration
      ) {
        throw new JournalError("JOURNAL_DAMAGED", "its columns do not match its body");
      }
      const meta = row.meta === null ? null : (JSON.parse(row.meta) as Record<string, unknown>);
      if (event.type === "decision-recorded") {
        const history = event.input.iterationCheck.history ?? [];
        pass.decisions.set(row.seq, { runId: row.run_id, taskId: event.taskId, history });
      }
      return { ok: true, entry: { seq: row.seq, runId: row.run_id, at: row.at, event, meta } };
    } catch (error) {
      const why =
        JournalError.isJournalError(error) && error.code === "JOURNAL_DAMAGED"
          ? error.message
          : `it cannot be read back (${(error as Error).message})`;
      return { ok: false, runId: row.run_id, seq: row.seq, error: damagedEvent(row, why) };
    }
  }

  /**
   * The first event of run `runId` whose row does not match its checksum, as the damage it is, or
   * undefined: the run's rows checked without reading their bodies back (blobs and histories
   * unread), for a command that trusts the task summaries otherwise.
   */
  firstMismatchedEvent(runId: number): JournalError | undefined {
    if (this.version === "1") return undefined;
    return this.read(() => {
      const rows = this.statement(
        `SELECT seq, run_id, at, type, task_id, iteration, effect_id, body, meta, checksum
         FROM events WHERE run_id = ? ORDER BY seq`,
      ).iterate(runId) as Iterable<StoredEventRow>;
      for (const row of rows) {
        if (row.checksum !== null && row.checksum !== eventChecksum(row)) {
          return damagedEvent(row, "it does not match its checksum");
        }
      }
      return undefined;
    });
  }

  /**
   * Appends an event; with `after`, the state the loop reached by applying it (holding at least
   * the event's task), the task's summary is kept in the same transaction (`taskBriefs`).
   * Refuses (JOURNAL_CONFLICT) an event whose effect was already carried
   * out: a second writer never records a step result, decision or answer twice.
   */
  append(
    runId: number,
    event: LoopEvent,
    meta: Record<string, unknown> | null = null,
    after?: LoopState,
  ): number {
    const task = after === undefined ? undefined : taskStateOf(after, event.taskId);
    const brief =
      after === undefined || task === undefined
        ? undefined
        : () => taskBriefOf(planTaskOf(after, event.taskId), task);
    const [seq] = this.appendAll(runId, [
      { event, meta, ...(brief === undefined ? {} : { brief }) },
    ]);
    return seq ?? 0;
  }

  /**
   * Appends several events of run `runId` in one transaction (a group commit): all are on disk
   * or none is. Each task's summary is its latest event's `brief`, written with it. Returns the
   * events' sequence numbers; refuses (JOURNAL_CONFLICT) the batch if any event's effect was
   * already carried out.
   */
  appendAll(runId: number, events: readonly JournaledEvent[]): number[] {
    const first = events[0]?.event;
    if (first === undefined) return [];
    const what =
      events.length === 1
        ? `${first.taskId}'s ${first.type} (attempt ${first.iteration}) was being journaled`
        : `${events.length} events (${first.taskId}'s ${first.type} first) were being journaled`;
    const written = this.write(() => this.writeAll(runId, events), what);
    for (const hash of written.added) this.storedBlobs.add(hash);
    for (const [key, base] of written.decided) this.latestDecisions.set(key, base);
    return written.seqs;
  }

  /**
   * Forgets task `taskId` of run `runId`'s latest decision, kept so that the next one's history
   * can refer to it: for a task that ended, which journals no more decisions in this drive. A
   * decision journaled after all would only be stored whole (event-packing.ts).
   */
  forgetDecisions(runId: number, taskId: string): void {
    this.latestDecisions.delete(decisionKey(runId, taskId));
  }

  /**
   * Keeps `brief` as what status shows of task `taskId` of run `runId`, with the number of the
   * task's events it reflects; in the transaction of the event it follows.
   */
  private recordSummary(runId: number, taskId: string, brief: TaskBrief): void {
    const events = this.statement("SELECT count(*) FROM events WHERE task_id = ? AND run_id = ?")
      .pluck()
      .get(taskId, runId) as number;
    const body = JSON.stringify(toWire(brief));
    this.statement(
      `INSERT INTO task_summaries (run_id, task_id, events, body, checksum) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(run_id, task_id) DO UPDATE
       SET events = excluded.events, body = excluded.body, checksum = excluded.checksum`,
    ).run(runId, taskId, events, body, summaryChecksum(runId, taskId, events, body));
  }

  /**
   * Keeps the summary of every started task of the state `fold` gives, the state run `runId`'s
   * events fold to (a run journaled before summaries were kept, see rebuild-summaries.ts). It
   * folds inside the write transaction, so no event is journaled between the fold and the rows.
   */
  writeSummaries(runId: number, fold: () => LoopState): void {
    this.write(() =>
      this.db
        .transaction(() => {
          const state = fold();
          for (const [position, task] of state.tasks.entries()) {
            if (task.phase.name === "pending") continue;
            const brief = taskBriefOf(state.plan.tasks[position], task);
            this.recordSummary(runId, task.id, brief);
          }
        })
        .immediate(),
    );
  }

  /**
   * The summaries kept of run `runId`'s tasks, by task id, read without its events — or undefined
   * when they may not tell the state its events fold to: a journal of a version before 3, a task
   * whose latest event was journaled without one (the rows' event counts do not add up to the
   * run's), or a row that does not match its checksum. A task with no events has no summary.
   */
  taskBriefs(runId: number): Map<string, TaskBrief> | undefined {
    if (this.version !== SCHEMA_VERSION && !this.hasTable("task_summaries")) return undefined;
    return this.read(() => {
      const total = this.statement("SELECT count(*) FROM events WHERE run_id = ?")
        .pluck()
        .get(runId) as number;
      const rows = this.statement(
        "SELECT task_id, events, body, checksum FROM task_summaries WHERE run_id = ?",
      ).all(runId) as SummaryRow[];
      let counted = 0;
      const briefs = new Map<string, TaskBrief>();
      for (const row of rows) {
        counted += row.events;
        if (row.checksum !== summaryChecksum(runId, row.task_id, row.events, row.body)) {
          return undefined;
        }
        briefs.set(row.task_id, fromWire(JSON.parse(row.body)) as TaskBrief);
      }
      return counted === total ? briefs : undefined;
    });
  }

  /** Whether runs journaled before version 3 may still lack their task summaries. */
  get summariesMissing(): boolean {
    return this.metaValue(SUMMARIES_MISSING) !== undefined;
  }

  /** Notes that every readable run has its task summaries. */
  summariesRebuilt(): void {
    this.write(() => this.statement("DELETE FROM meta WHERE key = ?").run(SUMMARIES_MISSING));
  }

  private metaValue(key: string): string | undefined {
    return this.read(
      () =>
        this.statement("SELECT value FROM meta WHERE key = ?").pluck().get(key) as
          string | undefined,
    );
  }

  private hasTable(name: string): boolean {
    return this.read(
      () =>
        this.statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
          .pluck()
          .get(name) !== undefined,
    );
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}
