import {
  existsSync,
  readFileSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import type { LoopEvent, StepFinished } from "../core/loop/loop-event.js";
import { generated } from "../core/loop/test-support/loop-world.js";
import { toWire } from "../wire/codec.js";
import { BLOB_MIN_CHARS } from "./event-packing.js";
import { APPLICATION_ID, WRITER_CACHE_KIB } from "./journal-database.js";
import { Journal } from "./journal.js";
import { loadRun } from "./load-run.js";
import { flipBytes } from "./test-support/damage.js";
import { fixtureProject } from "./test-support/fixture-project.js";
import { failingRun } from "./test-support/journaled-run.js";

const started: LoopEvent = {
  type: "step-started",
  effectId: '["t",1,"generate",0]',
  taskId: "t",
  iteration: 1,
  step: "generate",
};
const finished: StepFinished = {
  type: "step-finished",
  effectId: '["t",1,"generate",0]',
  taskId: "t",
  iteration: 1,
  outcome: {
    step: "generate",
    exitCode: 0,
    timedOut: false,
    durationMs: 5,
    spend: 0,
    tokens: 0,
    output: "ok",
  },
};

/** A journal with runs of `failingRun` journaled through `append`, closed; returns its path. */
function journalWith(runs: readonly ReturnType<typeof failingRun>[]): string {
  const { db } = fixtureProject();
  const journal = Journal.open(db);
  for (const run of runs) {
    const id = journal.createRun("/p/loopgate.yaml", "/p", run.document);
    for (const event of run.events) journal.append(id, event);
  }
  journal.close();
  return db;
}

/** Bytes the journal stores for its events and blobs (rows' text, SQLite's pages aside). */
function storedBytes(path: string): number {
  const db = new Database(path, { readonly: true });
  const bytes = db
    .prepare(
      "SELECT (SELECT coalesce(sum(length(body)), 0) FROM events) + (SELECT coalesce(sum(length(text)), 0) FROM blobs)",
    )
    .pluck()
    .get() as number;
  db.close();
  return bytes;
}

const written = (events: readonly LoopEvent[]) =>
  events.map((event) => JSON.stringify(toWire(event)));

describe("Journal", () => {
  it("round-trips runs and events, in order, with the driver's notes", () => {
    const journal = Journal.open(fixtureProject().db);
    const run = journal.createRun("/p/loopgate.yaml", "/p", { tasks: [] });
    journal.append(run, started, { pid: 1, host: "h" });
    journal.append(run, started);
    journal.append(run, finished);
    expect(journal.run(run)).toMatchObject({
      id: run,
      taskFile: "/p/loopgate.yaml",
      document: { tasks: [] },
    });
    expect(journal.events(run).map((entry) => [entry.event, entry.meta])).toEqual([
      [started, { pid: 1, host: "h" }],
      [started, null],
      [finished, null],
    ]);
    journal.close();
  });

  it("refuses to record a step result, decision or answer twice", () => {
    const journal = Journal.open(fixtureProject().db);
    const run = journal.createRun("f", "d", {});
    journal.append(run, finished);
    expect(() => journal.append(run, finished)).toThrow(/already journaled/);
    journal.close();
  });

  it("is append-only: rows cannot be changed or removed", () => {
    const journal = Journal.open(fixtureProject().db);
    const run = journal.createRun("f", "d", {});
    journal.append(run, {
      ...finished,
      outcome: generated({ diff: "x".repeat(BLOB_MIN_CHARS) }),
    });
    for (const table of ["events", "blobs"]) {
      expect(() => journal.db.prepare(`UPDATE ${table} SET rowid = 9`).run()).toThrow(
        /append-only/,
      );
      expect(() => journal.db.prepare(`DELETE FROM ${table}`).run()).toThrow(/append-only/);
    }
    journal.close();
  });

  it("uses WAL, marks itself as loopgate's and refuses a journal of another schema version", () => {
    const { db } = fixtureProject();
    const journal = Journal.open(db);
    expect(journal.db.pragma("journal_mode", { simple: true })).toBe("wal");
    // Negative: a size in KiB, not in pages.
    expect(journal.db.pragma("cache_size", { simple: true })).toBe(-WRITER_CACHE_KIB);
    expect(journal.db.pragma("application_id", { simple: true })).toBe(APPLICATION_ID);
    journal.db.prepare("UPDATE meta SET value = '99'").run();
    journal.close();
    expect(() => Journal.open(db)).toThrow(/schema version 99, this loopgate reads 1, 2 and 3/);
  });

  it("names the first event that does not fold, though the events before it do", () => {
    const run = failingRun({ attempts: 2, outputBytes: 10 });
    // The generate step's result is lost: the test step's result after it fits nothing.
    const events = [...run.events.slice(0, 1), ...run.events.slice(2)];
    const journal = Journal.open(journalWith([{ ...run, events }]), { readonly: true });
    const unfit = journal.events(1)[1];
    expect(() => loadRun(journal, 1)).toThrow(
      new RegExp(
        `^run 1 is damaged: event ${unfit?.seq}: event ${unfit?.event.type} .* does not fit the loop`,
      ),
    );
    journal.close();
  });

  it("gives back every event of a long run exactly as journaled, after reopening", () => {
    const runs = [failingRun({ attempts: 12, outputBytes: 2048, tasks: ["a", "b"] })];
    const db = journalWith(runs);
    const journal = Journal.open(db, { readonly: true });
    expect(written(journal.events(1).map((entry) => entry.event))).toEqual(
      written(runs[0]?.events ?? []),
    );
    expect(loadRun(journal, 1).state.tasks.map((task) => task.phase.name)).toEqual([
      "awaiting-answer",
      "pending",
    ]);
    journal.close();
  });

  it("stores each attempt's output once: bytes per attempt stay the same as attempts grow", () => {
    const perAttempt = (attempts: number) =>
      storedBytes(journalWith([failingRun({ attempts, outputBytes: 16 * 1024 })])) / attempts;
    const [few, many] = [perAttempt(4), perAttempt(40)];
    // Output, diff and generate output: about 2 × 16 KiB an attempt, never k × that.
    expect(many).toBeLessThan(few * 1.1);
    expect(many).toBeLessThan(2.2 * 16 * 1024);
  });

  it("stores a decision whole once its task's decisions are forgotten, and reads it back the same", () => {
    const run = failingRun({ attempts: 3, outputBytes: 40 });
    const { db } = fixtureProject();
    const journal = Journal.open(db);
    const id = journal.createRun("/p/loopgate.yaml", "/p", run.document);
    const decisions = run.events.filter((event) => event.type === "decision-recorded").length;
    let seen = 0;
    for (const event of run.events) {
      // Before the last decision only: the one before it still extends the first.
      if (event.type === "decision-recorded" && (seen += 1) === decisions) {
        journal.forgetDecisions(id, event.taskId);
      }
      journal.append(id, event);
    }
    const bodies = journal.db
      .prepare("SELECT body FROM events WHERE type = 'decision-recorded' ORDER BY seq")
      .pluck()
      .all() as string[];
    expect(bodies.map((body) => body.includes('"$history"'))).toEqual([false, true, false]);
    journal.close();
    const reopened = Journal.open(db, { readonly: true });
    expect(written(reopened.events(id).map((entry) => entry.event))).toEqual(written(run.events));
    reopened.close();
  });

  it("names a damaged event and the decision extending it, and reads every other run", () => {
    const db = journalWith([
      failingRun({ attempts: 3, outputBytes: 40, tasks: ["damaged"] }),
      failingRun({ attempts: 3, outputBytes: 40, tasks: ["sound"] }),
    ]);
    // Only the second decision's body names its effect with escaped quotes.
    flipBytes(db, String.raw`[\"damaged\",2,\"decision\"`);
    const journal = Journal.open(db, { readonly: true });
    expect(() => journal.events(1)).toThrow(
      /^run 1 is damaged: event 8 \(decision-recorded of task "damaged"\): it does not match its checksum$/,
    );
    const reads = journal.readEvents();
    expect(reads.flatMap((read) => (read.ok ? [] : [read.error.message]))).toEqual([
      'run 1 is damaged: event 8 (decision-recorded of task "damaged"): it does not match its checksum',
      'run 1 is damaged: event 12 (decision-recorded of task "damaged"): its history refers to event 8, which is not a readable earlier decision of its task',
    ]);
    expect(reads.filter((read) => read.ok)).toHaveLength(reads.length - 2);
    expect(loadRun(journal, 2).entries).toHaveLength(12);
    journal.close();
  });

  it("names every event reading a damaged blob", () => {
    const db = journalWith([failingRun({ attempts: 3, outputBytes: 4096, tasks: ["a"] })]);
    // Attempt 2's test output and diff, each stored once, read by four events.
    flipBytes(db, "FAIL a attempt 2: expected");
    const journal = Journal.open(db, { readonly: true });
    const damaged = journal.readEvents(1).flatMap((read) => (read.ok ? [] : [read.error.message]));
    expect(damaged.map((message) => message.replace(/[0-9a-f]{12}…/, "HASH"))).toEqual(
      [5, 6, 8, 12].map(
        (seq) =>
          `run 1 is damaged: event ${seq} (${seq === 5 || seq === 6 ? "step-finished" : "decision-recorded"} of task "a"): its blob HASH does not match its hash`,
      ),
    );
    journal.close();
  });

  it("reads without writing: no journal is created, and an existing one is left byte for byte", () => {
    const { db } = fixtureProject();
    expect(() => Journal.open(db, { readonly: true })).toThrow(
      `no journal at ${db} (loopgate run makes one)`,
    );
    expect(existsSync(dirname(db))).toBe(false);
    const path = journalWith([failingRun({ attempts: 2, outputBytes: 10 })]);
    const before = readFileSync(path);
    const journal = Journal.open(path, { readonly: true });
    expect(() => journal.createRun("f", "d", {})).toThrow(/opened for reading only/);
    journal.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("names what the file system refuses: a journal under a file, a directory for a journal", () => {
    const { dir } = fixtureProject();
    const file = join(dir, "plain");
    writeFileSync(file, "x");
    expect(() => Journal.open(join(file, "journal.db"))).toThrow(
      `${join(file, "journal.db")} cannot be opened (ENOTDIR)`,
    );
    expect(() => Journal.open(dir, { readonly: true })).toThrow(`${dir} is not a file`);
  });

  it.each([
    ["an empty file", "", /is an empty file, not a loopgate journal/],
    ["a text file", "hello\n", /is not an SQLite database, so not a journal/],
  ])("refuses %s, reading or writing, and leaves it as it is", (_name, text, message) => {
    const { dir } = fixtureProject();
    const path = join(dir, "app.db");
    writeFileSync(path, text);
    expect(() => Journal.open(path)).toThrow(message);
    expect(() => Journal.open(path, { readonly: true })).toThrow(message);
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("refuses another application's SQLite database before any write or mode change", () => {
    const { dir } = fixtureProject();
    const plain = join(dir, "app.db");
    const app = new Database(plain);
    app.exec(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'ann');",
    );
    app.close();
    const marked = join(dir, "other.db");
    const other = new Database(marked);
    other.pragma("application_id = 1234");
    other.exec(
      "CREATE TABLE meta (key TEXT, value TEXT); CREATE TABLE runs (x); CREATE TABLE events (y);",
    );
    other.close();
    for (const [path, message] of [
      [plain, /is an SQLite database but not a loopgate journal \(its tables are "users"\)/],
      [marked, /is another application's SQLite database \(application_id 0x4d2\)/],
    ] as const) {
      const before = readFileSync(path);
      for (const readonly of [false, true])
        expect(() => Journal.open(path, { readonly })).toThrow(message);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(existsSync(`${path}-wal`)).toBe(false);
    }
  });

  it("refuses to write to a journal failing SQLite's integrity check, and leaves it as it is", () => {
    const path = journalWith([failingRun({ attempts: 3, outputBytes: 2048 })]);
    const probe = new Database(path, { readonly: true });
    const page = probe
      .prepare("SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' LIMIT 1")
      .pluck()
      .get() as number;
    probe.close();
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    // Scrambles the header of a page of the events table: its cells no longer add up.
    bytes.fill(0x7f, (page - 1) * pageSize, (page - 1) * pageSize + 12);
    writeFileSync(path, bytes);
    let message = "";
    try {
      Journal.open(path);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/is damaged|fails SQLite's integrity check/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  describe("changed under the runner", () => {
    const opened = () => {
      const { db } = fixtureProject();
      const journal = Journal.open(db);
      journal.append(journal.createRun("f", "d", {}), started);
      return { db, journal };
    };

    it.each([
      [
        "truncated",
        (db: string) => truncateSync(db, 0),
        /shrank from \d+ to 0 bytes while a step ran/,
      ],
      ["removed", (db: string) => unlinkSync(db), /was removed while a step ran/],
      [
        "replaced",
        (db: string) => {
          const copy = readFileSync(db);
          unlinkSync(db);
          writeFileSync(db, copy);
        },
        /was replaced while a step ran/,
      ],
      [
        "its WAL truncated",
        (db: string) => truncateSync(`${db}-wal`, 0),
        /write-ahead log .* shrank/,
      ],
      [
        "overwritten in place",
        (db: string) => {
          const size = statSync(db).size;
          writeFileSync(db, Buffer.alloc(size, 0x55));
        },
        /cannot be read back|integrity/,
      ],
    ])("stops when the journal is %s, and writes nothing more", (_name, change, message) => {
      const { db, journal } = opened();
      change(db);
      expect(() => journal.checkUnchanged("a step ran", 1)).toThrow(message);
      expect(journal.intact).toBe(false);
      expect(() => journal.append(1, finished)).toThrow(message);
      journal.close();
    });

    // A step runs beside the runner's own writes (its step-started event, a lease's renewal):
    // its truncation can land inside one, before SQLite writes its frames (which regrow the file
    // past the cut) or after them (before the runner looks at the file again).
    it.each([
      ["before", /write-ahead log .* lost its header \(cut while written to, or overwritten\)/],
      ["after", /write-ahead log .* shrank from \d+ to 0 bytes/],
    ])(
      "stops when the WAL is truncated during its own write, %s SQLite writes",
      (when, message) => {
        const { db, journal } = opened();
        const cut = () => truncateSync(`${db}-wal`, 0);
        expect(() => {
          journal.write(() => {
            if (when === "before") cut();
            journal.db.prepare("UPDATE runs SET task_file = 'g'").run();
            if (when === "after") cut();
          }, "a lease was renewed");
          journal.checkUnchanged("a step ran", 1);
        }).toThrow(message);
        expect(journal.intact).toBe(false);
        journal.close();
      },
    );

    it("is not read afresh after another process only read it (SQLite as root fchowns the log)", () => {
      const { db, journal } = opened();
      // `loopgate status` beside the run: a connection of its own, in a process of its own.
      const reader = `const D = require("better-sqlite3"); const d = new D(${JSON.stringify(db)}, { readonly: true, fileMustExist: true }); d.prepare("SELECT count(*) FROM events").get(); d.close();`;
      execFileSync(process.execPath, ["-e", reader], { cwd: process.cwd() });
      const reopened = vi.spyOn(Journal, "open");
      journal.checkUnchanged("a step ran", 1);
      expect(reopened).not.toHaveBeenCalled();
      reopened.mockRestore();
      journal.close();
    });

    it("goes on when another runner wrote to it meanwhile", () => {
      const { db, journal } = opened();
      const other = Journal.open(db);
      other.append(other.createRun("f", "d", {}), started);
      other.close();
      journal.checkUnchanged("a step ran", 1);
      journal.append(1, finished);
      expect(journal.intact).toBe(true);
      journal.close();
    });
  });
});
