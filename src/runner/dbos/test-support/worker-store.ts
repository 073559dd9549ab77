import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { postgresAvailability } from "../../../test-support/postgres.js";
import { requireBuild } from "../../test-support/built-cli.js";
import { quietPgWarning } from "../dbos-driver.js";
import { migratedStore } from "./migrated-store.js";
import { WorkerProcesses } from "./worker-processes.js";

/** A suite's migrated store, a client on it, and the worker processes its tests start. */
export interface WorkerStore {
  readonly url: () => string;
  readonly db: () => pg.Client;
  readonly workers: WorkerProcesses;
}

/**
 * A suite of tests with `loopgate worker` processes on a fresh migrated store, skipped (with the
 * reason in its name) when the test server cannot run: the store is made before its tests, and
 * the workers killed and the client closed after them.
 */
export function describeWithWorkers(title: string, tests: (store: WorkerStore) => void): void {
  const availability = postgresAvailability();
  const skipped = availability.skip === false ? "" : ` (skipped: ${availability.skip})`;
  describe.skipIf(availability.skip !== false)(`${title}${skipped}`, () => {
    let url = "";
    let db: pg.Client | undefined;
    const workers = new WorkerProcesses(() => url);

    beforeAll(async () => {
      requireBuild();
      quietPgWarning();
      ({ url, db } = await migratedStore());
    });

    afterAll(async () => {
      workers.killAll();
      await db?.end();
    });

    tests({
      url: () => url,
      db: () => {
        if (db === undefined) throw new Error("the store is made before the suite's tests");
        return db;
      },
      workers,
    });
  });
}
