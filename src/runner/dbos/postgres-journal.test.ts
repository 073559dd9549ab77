import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import { freshDatabase, postgresAvailability } from "../../test-support/postgres.js";
import { LOOPGATE_SCHEMA_VERSION, migrateLoopgateSchema } from "./loopgate-schema.js";
import { PostgresJournal } from "./postgres-journal.js";

const availability = postgresAvailability();

const started = (taskId: string): LoopEvent => ({
  type: "step-started",
  effectId: JSON.stringify([taskId, 1, "generate", 0]),
  taskId,
  iteration: 1,
  step: "generate",
});

describe.skipIf(availability.skip !== false)(
  `the PostgreSQL journal${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let pool: pg.Pool;
    let journal: PostgresJournal;

    beforeAll(async () => {
      const url = await freshDatabase();
      pool = new pg.Pool({ connectionString: url, max: 4 });
      journal = new PostgresJournal(pool, url);
      await expect(journal.checkSchema()).rejects.toThrow(
        "has no loopgate tables: run loopgate db migrate --store URL first",
      );
      const client = await pool.connect();
      try {
        // Twice at once: the advisory lock makes one of them apply the steps.
        const [first, second] = await Promise.all([
          migrateLoopgateSchema(client),
          pool.connect().then(async (other) => {
            try {
              return await migrateLoopgateSchema(other);
            } finally {
              other.release();
            }
          }),
        ]);
        expect([first, second].map((done) => done.from).sort()).toEqual([
          0,
          LOOPGATE_SCHEMA_VERSION,
        ]);
      } finally {
        client.release();
      }
      await journal.checkSchema();
    });

    afterAll(async () => {
      await pool?.end();
    });

    it("keeps a run as given and reads it back", async () => {
      const runId = await journal.createRun("/p/tasks.yaml", "/p", { tasks: [{ id: "a" }] }, 2);
      expect(await journal.run(runId)).toMatchObject({
        id: runId,
        taskFile: "/p/tasks.yaml",
        baseDir: "/p",
        document: { tasks: [{ id: "a" }] },
        concurrency: 2,
      });
      await expect(journal.run(runId + 1000)).rejects.toThrow(`no run ${runId + 1000} in`);
    });

    it("appends an event once per place in its task's story: a step run again appends nothing twice", async () => {
      const runId = await journal.createRun("/p/tasks.yaml", "/p", {}, undefined);
      expect(await journal.append(runId, 0, started("a"), { pid: 1 })).toBe(true);
      await journal.append(runId, 0, started("b"), { pid: 2 });
      // The same place again, as a DBOS step re-run after its worker died would append it.
      expect(await journal.append(runId, 0, started("a"), { pid: 3 })).toBe(false);
      // A different event there (a worker that lost the task wrote first): the first one stays.
      expect(await journal.append(runId, 0, { ...started("a"), iteration: 2 })).toBe(false);
      expect(await journal.stored(runId, "a", 0)).toEqual(started("a"));
      expect(await journal.stored(runId, "a", 1)).toBeUndefined();
      const entries = await journal.events(runId);
      expect(entries.map((entry) => [entry.event, entry.meta])).toEqual([
        [started("a"), { pid: 1 }],
        [started("b"), { pid: 2 }],
      ]);
      // Read back as written, keys in their order.
      expect(Object.keys(entries[0]!.event)).toEqual(Object.keys(started("a")));
    });

    it("appends nothing to a task after its cancellation, and says whether it appended", async () => {
      const runId = await journal.createRun("/p/tasks.yaml", "/p", {}, undefined);
      const cancelled: LoopEvent = {
        type: "task-cancelled",
        effectId: started("a").effectId,
        taskId: "a",
        iteration: 1,
        by: "tester",
      };
      // The cancellation takes the place the step's start would have: the step, in flight, ends
      // unheard, its start and its end refused.
      expect(await journal.append(runId, 0, cancelled, { source: "loopgate cancel" })).toBe(true);
      expect(await journal.append(runId, 0, started("a"))).toBe(false);
      expect(await journal.append(runId, 1, started("a"))).toBe(false);
      expect(await journal.append(runId, 0, started("b"))).toBe(true);
      expect((await journal.taskEvents(runId, "a")).map((entry) => entry.event)).toEqual([
        cancelled,
      ]);
      expect((await journal.runIdsWithTask("b")).at(-1)).toBe(runId);
      expect((await journal.eventsOf([runId])).map((entry) => entry.event.taskId)).toEqual([
        "a",
        "b",
      ]);
    });
  },
);
