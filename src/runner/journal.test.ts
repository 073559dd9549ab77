import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../core/loop/loop-event.js";
import { Journal } from "./journal.js";
import { fixtureProject } from "./test-support/fixture-project.js";

const started: LoopEvent = {
  type: "step-started",
  effectId: '["t",1,"generate",0]',
  taskId: "t",
  iteration: 1,
  step: "generate",
};
const finished: LoopEvent = {
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
    journal.append(run, finished);
    expect(() => journal.db.prepare("UPDATE events SET type = 'x'").run()).toThrow(/append-only/);
    expect(() => journal.db.prepare("DELETE FROM events").run()).toThrow(/append-only/);
    journal.close();
  });

  it("uses WAL and refuses a journal of another schema version", () => {
    const { db } = fixtureProject();
    const journal = Journal.open(db);
    expect(journal.db.pragma("journal_mode", { simple: true })).toBe("wal");
    journal.db.prepare("UPDATE meta SET value = '99'").run();
    journal.close();
    expect(() => Journal.open(db)).toThrow(/schema version 99/);
  });
});
