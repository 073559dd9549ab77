import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { postgresAvailability } from "../../test-support/postgres.js";
import { TASKS_PER_WORKER } from "./queues.js";
import {
  ANSWERED_PASS,
  finished,
  taskRows,
  untilFile,
  untilTasks,
  WorkerProcesses,
} from "./test-support/worker-processes.js";
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

    it("tasks waiting for answers hold no place of a worker: with --concurrency 1 the other tasks run and finish while they wait, and an answer wakes one", async () => {
      const fixture = fixtureProject();
      // As many waiting tasks as a worker holds work at once, and two more that pass: were the
      // waits held in work places, the two would never start.
      const waiting = Array.from({ length: TASKS_PER_WORKER }, (_, index) => `w${index + 1}`);
      const document = {
        iteration_control: { max_iterations: 1 },
        steps: {
          generate: { command: "echo generated" },
          test: { command: `case "$LOOPGATE_TASK_ID" in w*) exit 1;; esac` },
        },
        tasks: [...waiting, "a", "b"].map((id) => ({ id, prompt: `do ${id}` })),
      };
      const taskFile = join(fixture.dir, "waits.yaml");
      writeFileSync(taskFile, stringify(document));
      const submitted = cli(["run", taskFile, "--store", url, "--submit-only"], {}, fixture.dir);
      expect([submitted.status, submitted.stderr]).toEqual([0, ""]);
      const runId = Number(/submitted run (\d+)/.exec(submitted.stdout)?.[1]);
      const worker = await workers.start("worker-waits", ["--concurrency", "1"]);
      const passed = [`loopgate-run-${runId}-task-a`, `loopgate-run-${runId}-task-b`];
      const escalated = async () =>
        (
          await db.query<{ task_id: string }>(
            "SELECT task_id FROM loopgate.events WHERE run_id = $1 AND type = 'decision-recorded' AND event->'decision'->>'action' = 'escalate' ORDER BY task_id",
            [runId],
          )
        ).rows.map((row) => row.task_id);
      // Every waiting task paused for its answer, and the two others finished, all at once.
      let rows = await taskRows(db, runId);
      for (const deadline = Date.now() + 30_000; ; await sleep(50)) {
        rows = await taskRows(db, runId);
        const done = passed.every((id) =>
          rows.some((row) => row.workflow_uuid === id && row.status === "SUCCESS"),
        );
        if (done && (await escalated()).length === waiting.length) break;
        expect([Date.now() < deadline, rows]).toEqual([true, rows]);
      }
      expect(await escalated()).toEqual([...waiting].sort());
      // The waiting tasks are still held by the worker, and no work of the run is left in
      // flight: a wait holds nothing on the work queue.
      expect(rows.filter((row) => row.status !== "SUCCESS").map((row) => row.status)).toEqual(
        waiting.map(() => "PENDING"),
      );
      const work = await db.query<{ status: string }>(
        "SELECT status FROM dbos.workflow_status WHERE workflow_uuid LIKE $1 AND name = 'loopgate-task-work' AND status <> 'SUCCESS'",
        [`loopgate-run-${runId}-%`],
      );
      expect(work.rows).toEqual([]);
      const answered = cli(
        ["answer", "w1", "--abort", "--run", String(runId), "--store", url],
        {},
        fixture.dir,
      );
      expect([answered.status, answered.stderr]).toEqual([0, ""]);
      const woken = await untilTasks(db, runId, (found) =>
        found.some(
          (row) =>
            row.workflow_uuid === `loopgate-run-${runId}-task-w1` && row.status === "SUCCESS",
        ),
      );
      expect(woken.filter((row) => row.status === "SUCCESS")).toHaveLength(3);
      const ended = await db.query<{ task_id: string; type: string }>(
        "SELECT task_id, type FROM loopgate.events WHERE run_id = $1 AND task_id = 'w1' ORDER BY seq",
        [runId],
      );
      expect(ended.rows.map((row) => row.type)).toEqual(ANSWERED_PASS);
      // The other waits are handed back to the queue on SIGTERM, for any worker to take up.
      expect(await workers.stop(worker)).toBe(0);
      expect((await taskRows(db, runId)).filter((row) => row.status === "ENQUEUED")).toHaveLength(
        TASKS_PER_WORKER - 1,
      );
    });
  },
);
