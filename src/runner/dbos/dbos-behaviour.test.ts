import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, postgresAvailability } from "../../test-support/postgres.js";
import { migratePostgresStore } from "./migrate-store.js";

// What the DBOS driver relies on, checked against the pinned @dbos-inc/dbos-sdk and a real
// PostgreSQL server, with worker processes standing in for machines (docs/distributed.md).

const PROBE = fileURLToPath(new URL("./test-support/dbos-probe-worker.mjs", import.meta.url));
const APP = { applicationName: "loopgate-probe", appVersion: "probe-1" } as const;
const availability = postgresAvailability();

interface ProbeRow {
  readonly workflow: string;
  readonly step: string;
  readonly phase: "start" | "end";
  readonly executor: string;
  readonly at: Date;
}

describe.skipIf(availability.skip !== false)(
  `DBOS Transact as the distributed driver uses it${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let db: pg.Client;
    let client: DBOSClient;
    const workers = new Map<string, ChildProcess>();

    /** Starts a worker process and waits until it has launched DBOS and registered its queues. */
    const startWorker = (executor: string, listen: string) =>
      new Promise<ChildProcess>((resolve, reject) => {
        const child = spawn(process.execPath, [PROBE], {
          env: {
            ...process.env,
            PROBE_URL: url,
            PROBE_EXECUTOR: executor,
            PROBE_LISTEN: listen,
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        workers.set(executor, child);
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
        child.stdout.setEncoding("utf8").on("data", (text: string) => {
          if (text.includes("ready")) resolve(child);
        });
        child.on("exit", (code) =>
          reject(new Error(`worker ${executor} exited ${code}: ${stderr}`)),
        );
      });

    const rows = async (workflow: string): Promise<ProbeRow[]> =>
      (
        await db.query<ProbeRow>(
          "SELECT workflow, step, phase, executor, at FROM probe_log WHERE workflow = $1 ORDER BY id",
          [workflow],
        )
      ).rows;

    beforeAll(async () => {
      url = await freshDatabase();
      db = new pg.Client({ connectionString: url });
      await db.connect();
      await db.query(
        "CREATE TABLE probe_log (id serial PRIMARY KEY, workflow text, step text, phase text, executor text, at timestamptz)",
      );
      // Once, before any worker: workers launch without migrating (launches racing on a fresh
      // database fail).
      await migratePostgresStore(url);
      // Its notes ("Registered new queue …") are not what this test reads.
      const quiet = {
        info: () => undefined,
        debug: () => undefined,
        warn: console.warn,
        error: console.error,
      };
      client = await DBOSClient.create({
        systemDatabaseUrl: url,
        applicationName: APP.applicationName,
        logger: quiet,
      });
      // A queue's limits are one row in the database, read by every worker at each poll; the
      // workers register theirs without overwriting it. worker-b alone also takes work from
      // "solo", for the test that kills it.
      await client.registerQueue("work", { workerConcurrency: 2 });
      await client.registerQueue("solo", { workerConcurrency: 1 });
      await Promise.all([startWorker("worker-a", "work"), startWorker("worker-b", "work,solo")]);
    });

    afterAll(async () => {
      for (const child of workers.values()) child.kill("SIGKILL");
      await client?.destroy();
      await db?.end();
    });

    it("runs a workflow's steps in order, each once, and hands its result to a client", async () => {
      const handle = await client.enqueue(
        { ...APP, queueName: "work", workflowName: "steps", workflowID: "steps-1" },
        {},
        null,
      );
      const result = (await handle.getResult()) as string[];
      expect(result.map((line) => line.split(" by ")[0])).toEqual(["one", "two", "three"]);
      const seen = await rows("steps-1");
      expect(seen.map((row) => `${row.step}:${row.phase}`)).toEqual([
        "one:start",
        "one:end",
        "two:start",
        "two:end",
        "three:start",
        "three:end",
      ]);
    });

    it("wakes a workflow waiting in recv with a message a client sends, and publishes its status with setEvent", async () => {
      const handle = await client.enqueue({
        ...APP,
        queueName: "work",
        workflowName: "waiter",
        workflowID: "waiter-1",
      });
      // A client's getEvent polls every 10 s unless told otherwise.
      const poll = { timeoutSeconds: 20, pollingIntervalMs: 50 };
      expect(await client.getEvent("waiter-1", "status", poll)).toBe("waiting");
      await client.send("waiter-1", { option: 2 }, "answer");
      expect(await handle.getResult()).toEqual({ option: 2 });
      expect(await client.getEvent("waiter-1", "status", poll)).toBe("answered");
      await expect(client.send("no-such-workflow", 1, "answer")).rejects.toThrow();
    });

    it("keeps each worker within the queue's workerConcurrency while both share the queue", async () => {
      const ids = Array.from({ length: 6 }, (_, index) => `busy-${index}`);
      const handles = await Promise.all(
        ids.map((workflowID) =>
          client.enqueue(
            { ...APP, queueName: "work", workflowName: "steps", workflowID },
            { one: 1_000 },
            null,
          ),
        ),
      );
      await Promise.all(handles.map((handle) => handle.getResult()));
      const spans = (await Promise.all(ids.map(rows)))
        .map((seen) => seen.filter((row) => row.step === "one"))
        .map(([start, end]) => ({ executor: start!.executor, from: +start!.at, to: +end!.at }));
      const mostAtOnce = (executor?: string) => {
        const mine = spans.filter((span) => executor === undefined || span.executor === executor);
        return Math.max(
          ...mine.map(
            (span) =>
              mine.filter((other) => other.from <= span.from && span.from < other.to).length,
          ),
        );
      };
      expect(mostAtOnce("worker-a")).toBeLessThanOrEqual(2);
      expect(mostAtOnce("worker-b")).toBeLessThanOrEqual(2);
      // More than one worker's worth at once: both took work.
      expect(mostAtOnce()).toBeGreaterThanOrEqual(3);
    });

    // Last: it kills worker-b.
    it("moves a dead executor's workflow to a live worker with resumeWorkflow: done steps are kept, the step in flight runs again", async () => {
      const handle = await client.enqueue(
        { ...APP, queueName: "solo", workflowName: "steps", workflowID: "dies-1" },
        {},
        "worker-b",
      );
      for (let tries = 0; !(await rows("dies-1")).some((row) => row.step === "two"); tries += 1) {
        if (tries > 400) throw new Error("step two never started on worker-b");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      workers.get("worker-b")!.kill("SIGKILL");
      const [owned] = await client.listWorkflows({ workflowIDs: ["dies-1"] });
      expect(owned).toMatchObject({ status: "PENDING", executorId: "worker-b" });
      await client.resumeWorkflow("dies-1", { queueName: "work" });
      const result = (await handle.getResult()) as string[];
      expect(result).toEqual(["one by worker-b", "two by worker-a", "three by worker-a"]);
      const seen = (await rows("dies-1")).map((row) => `${row.step}:${row.phase}:${row.executor}`);
      expect(seen).toEqual([
        "one:start:worker-b",
        "one:end:worker-b",
        "two:start:worker-b",
        "two:start:worker-a",
        "two:end:worker-a",
        "three:start:worker-a",
        "three:end:worker-a",
      ]);
      const [moved] = await client.listWorkflows({ workflowIDs: ["dies-1"] });
      expect(moved).toMatchObject({ status: "SUCCESS", executorId: "worker-a" });
    });
  },
);
