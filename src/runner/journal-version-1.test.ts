import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { toWire } from "../wire/codec.js";
import { APPLICATION_ID } from "./journal-database.js";
import { Journal } from "./journal.js";
import { loadRun } from "./load-run.js";
import { fixtureProject } from "./test-support/fixture-project.js";
import { failingRun } from "./test-support/journaled-run.js";
import { writeVersion1Journal } from "./test-support/version-1-journal.js";

/** A journal loopgate 0.1 wrote: one run, every body in full, no checksums, no concurrency. */
function version1() {
  const { db } = fixtureProject();
  const run = failingRun({ attempts: 3, outputBytes: 1024 });
  writeVersion1Journal(db, run.document, run.events);
  return { db, run };
}

const written = (events: readonly unknown[]) =>
  events.map((event) => JSON.stringify(toWire(event)));

describe("journals of schema version 1", () => {
  it("are read as they are: same events, one task at a time, the file left byte for byte", () => {
    const { db, run } = version1();
    const before = readFileSync(db);
    const journal = Journal.open(db, { readonly: true });
    expect(journal.version).toBe("1");
    const loaded = loadRun(journal, 1);
    expect(loaded.run.concurrency).toBe(1);
    expect(written(loaded.entries.map((entry) => entry.event))).toEqual(written(run.events));
    journal.close();
    expect(readFileSync(db).equals(before)).toBe(true);
  });

  it("go on after the upgrade: a resumed run's next decisions extend the ones in full", () => {
    const { db } = fixtureProject();
    const run = failingRun({ attempts: 4, outputBytes: 1024 });
    const split = run.events.findIndex((event) => event.type === "decision-recorded") + 1;
    writeVersion1Journal(db, run.document, run.events.slice(0, split));
    const journal = Journal.open(db);
    // As the driver does: the run is read (and folded) before anything is appended to it.
    loadRun(journal, 1);
    for (const event of run.events.slice(split)) journal.append(1, event);
    const packed = journal.db
      .prepare(
        "SELECT body FROM events WHERE run_id = 1 AND type = 'decision-recorded' ORDER BY seq",
      )
      .pluck()
      .all() as string[];
    expect(packed[1]).toContain(`{"$history":{"after":${split},`);
    journal.close();
    const again = Journal.open(db, { readonly: true });
    expect(written(again.events(1).map((entry) => entry.event))).toEqual(written(run.events));
    again.close();
  });

  it("are upgraded when a command first writes: old events read on, new ones stored once", () => {
    const { db, run } = version1();
    const journal = Journal.open(db);
    expect(journal.db.pragma("application_id", { simple: true })).toBe(APPLICATION_ID);
    expect(
      journal.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get(),
    ).toBe("3");
    const second = journal.createRun("/p/loopgate.yaml", "/p", run.document, 3);
    for (const event of run.events) journal.append(second, event);
    journal.close();
    const again = Journal.open(db, { readonly: true });
    expect(again.runIds().map((id) => again.run(id)?.concurrency)).toEqual([1, 3]);
    for (const id of [1, 2]) {
      expect(written(again.events(id).map((entry) => entry.event))).toEqual(written(run.events));
    }
    again.close();
    // The new run's bodies refer to blobs; the old run's stay in full.
    const raw = new Database(db, { readonly: true });
    const bodies = (id: number) =>
      raw
        .prepare("SELECT sum(length(body)) FROM events WHERE run_id = ?")
        .pluck()
        .get(id) as number;
    expect(bodies(2)).toBeLessThan(bodies(1) / 2);
    raw.close();
  });
});
