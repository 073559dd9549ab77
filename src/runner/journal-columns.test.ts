import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Journal } from "./journal.js";
import { fixtureProject } from "./test-support/fixture-project.js";

describe("Journal columns added after the first schema", () => {
  it("opens a journal written before --concurrency: its runs ran one task at a time", () => {
    const { db: path } = fixtureProject();
    mkdirSync(dirname(path), { recursive: true });
    const old = new Database(path);
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO meta VALUES ('schema_version', '1');
      CREATE TABLE runs (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL,
        task_file TEXT NOT NULL, base_dir TEXT NOT NULL, document TEXT NOT NULL);
      INSERT INTO runs VALUES (1, '2025-01-01T00:00:00.000Z', '/p/loopgate.yaml', '/p', '{}');`);
    old.close();
    const journal = Journal.open(path);
    expect(journal.run(1)?.concurrency).toBe(1);
    expect(journal.run(journal.createRun("/p/loopgate.yaml", "/p", {}, 3))?.concurrency).toBe(3);
    journal.close();
    // Opening it again finds the column there and leaves it be.
    expect(
      Journal.open(path)
        .runs()
        .map((run) => run.concurrency),
    ).toEqual([1, 3]);
  });
});
