import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { postgresAvailability } from "../../test-support/postgres.js";
import { finished, untilFile, WorkerProcesses } from "./test-support/worker-processes.js";
import { migratedStore } from "./test-support/migrated-store.js";

// `loopgate run --submit-only` and `loopgate worker` processes on one PostgreSQL store.

const availability = postgresAvailability();

describe.skipIf(availability.skip !== false)(
  `loopgate worker on a PostgreSQL store${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let db: pg.Client;
    const workers = new WorkerProcesses(() => url);
    const startWorker = async (executor: string) => (await workers.start(executor)).child;
    const stop = (child: ChildProcess) => workers.stop({ child, stderr: () => "" });

    beforeAll(async () => {
      requireBuild();
      ({ url, db } = await migratedStore());
    });

    afterAll(async () => {
      workers.killAll();
      await db?.end();
    });

    it("two workers carry out a submitted run's tasks, each task once, and stop on SIGTERM", async () => {
      const fixture = fixtureProject({ passFrom: 1, tasks: ["t1", "t2", "t3", "t4", "t5", "t6"] });
      const submitted = cli(
        ["run", fixture.taskFile, "--store", url, "--submit-only"],
        {},
        fixture.dir,
      );
      expect([submitted.status, submitted.stderr]).toEqual([0, ""]);
      expect(submitted.stdout).toBe("submitted run 1: 6 tasks queued for loopgate worker\n");
      const [a, b] = await Promise.all([startWorker("worker-a"), startWorker("worker-b")]);
      const rows = await finished(db, 1, 6);
      expect(rows.filter((row) => !["worker-a", "worker-b"].includes(row.executor_id))).toEqual([]);
      // Every task's story ran once: three steps started and finished, one decision.
      const counts = await db.query<{ task_id: string; events: string }>(
        "SELECT task_id, count(*) AS events FROM loopgate.events WHERE run_id = 1 GROUP BY task_id ORDER BY task_id",
      );
      expect(counts.rows).toEqual(
        ["t1", "t2", "t3", "t4", "t5", "t6"].map((task_id) => ({ task_id, events: "7" })),
      );
      const generated = fixture.trace().filter((line) => line.endsWith("generate 1 start"));
      expect(generated.sort()).toEqual(
        ["t1", "t2", "t3", "t4", "t5", "t6"].map((task) => `${task} generate 1 start`),
      );
      expect(await Promise.all([stop(a!), stop(b!)])).toEqual([0, 0]);
    });

    it("a worker killed mid-step gets its task back when it starts again with its executor id: only the step in flight runs again, and what the dead one left of it is killed", async () => {
      const fixture = fixtureProject();
      const trace = join(fixture.dir, "steps.log");
      const once = join(fixture.dir, "test-started-once");
      const mark = (step: string) => `echo "${step}" >> '${trace}'`;
      const document = {
        iteration_control: { max_iterations: 3 },
        steps: {
          generate: { command: mark("generate") },
          // The first run of the test hangs until its worker is killed; the second passes.
          test: {
            command: `${mark("test")}; if [ ! -e '${once}' ]; then touch '${once}'; sleep 60; fi`,
          },
        },
        tasks: [{ id: "crash", prompt: "do crash" }],
      };
      const taskFile = join(fixture.dir, "crash.yaml");
      writeFileSync(taskFile, stringify(document));
      const submitted = cli(["run", taskFile, "--store", url, "--submit-only"], {}, fixture.dir);
      expect(submitted.stdout).toBe("submitted run 2: 1 task queued for loopgate worker\n");
      const first = await startWorker("worker-k");
      await untilFile(() => existsSync(once), "the test step's start");
      first.kill("SIGKILL");
      await new Promise((resolve) => first.on("exit", resolve));
      const again = await startWorker("worker-k");
      const [row] = await finished(db, 2, 1);
      expect(row).toMatchObject({ executor_id: "worker-k" });
      expect(readFileSync(trace, "utf8").trim().split("\n")).toEqual(["generate", "test", "test"]);
      const story = await db.query<{ type: string; effect_id: string }>(
        "SELECT type, effect_id FROM loopgate.events WHERE run_id = 2 ORDER BY seq",
      );
      expect(story.rows.map((event) => `${event.type} ${event.effect_id}`)).toEqual([
        'step-started ["crash",1,"generate",0]',
        'step-finished ["crash",1,"generate",0]',
        'step-started ["crash",1,"test",0]',
        'step-finished ["crash",1,"test",0]',
        'decision-recorded ["crash",1,"decision",0]',
      ]);
      expect(await stop(again)).toBe(0);
      // The killed worker's step slept on; the worker that ran it again, on the same host, killed
      // what it left (its journaled pid, start time and token name it).
      const meta = await db.query<{ meta: { pid: number; token: string } }>(
        "SELECT meta FROM loopgate.events WHERE run_id = 2 AND type = 'step-started' AND effect_id LIKE '%test%'",
      );
      expect(meta.rows[0]!.meta.token).toEqual(expect.any(String));
      const gone = () => {
        try {
          process.kill(-meta.rows[0]!.meta.pid, 0);
          return false;
        } catch {
          return true;
        }
      };
      await untilFile(gone, "the orphaned step's end");
    });
  },
);
