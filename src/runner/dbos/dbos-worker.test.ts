import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild, ROOT } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { freshDatabase, postgresAvailability } from "../../test-support/postgres.js";

// `loopgate run --submit-only` and `loopgate worker` processes on one PostgreSQL store.

const BIN = join(ROOT, "bin", "loopgate.js");
const availability = postgresAvailability();

describe.skipIf(availability.skip !== false)(
  `loopgate worker on a PostgreSQL store${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let db: pg.Client;
    const workers: ChildProcess[] = [];

    /** Starts a worker and waits until it says it works. */
    const startWorker = (executor: string) =>
      new Promise<ChildProcess>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [BIN, "worker", "--store", url, "--executor", executor],
          {
            stdio: ["ignore", "ignore", "pipe"],
          },
        );
        workers.push(child);
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (text: string) => {
          stderr += text;
          if (stderr.includes("working on")) resolve(child);
        });
        child.on("exit", (code) =>
          reject(new Error(`worker ${executor} exited ${code}: ${stderr}`)),
        );
      });

    const stop = (child: ChildProcess) =>
      new Promise<number | null>((resolve) => {
        child.on("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      });

    /** Waits until every workflow of the run has succeeded; returns their executors by task. */
    const finished = async (runId: number, tasks: number) => {
      for (let tries = 0; tries < 600; tries += 1) {
        const rows = (
          await db.query<{ workflow_uuid: string; status: string; executor_id: string }>(
            "SELECT workflow_uuid, status, executor_id FROM dbos.workflow_status WHERE workflow_uuid LIKE $1",
            [`loopgate-run-${runId}-task-%`],
          )
        ).rows;
        if (rows.length === tasks && rows.every((row) => row.status === "SUCCESS")) return rows;
        await sleep(50);
      }
      throw new Error(`run ${runId} did not finish`);
    };

    beforeAll(async () => {
      requireBuild();
      url = await freshDatabase();
      expect(cli(["db", "migrate", "--store", url]).status).toBe(0);
      db = new pg.Client({ connectionString: url });
      await db.connect();
    });

    afterAll(async () => {
      for (const child of workers) child.kill("SIGKILL");
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
      const rows = await finished(1, 6);
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

    it("a worker killed mid-step gets its task back when it starts again with its executor id: only the step in flight runs again", async () => {
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
      for (let tries = 0; !existsSync(once); tries += 1) {
        if (tries > 600) throw new Error("the test step never started");
        await sleep(50);
      }
      first.kill("SIGKILL");
      await new Promise((resolve) => first.on("exit", resolve));
      const again = await startWorker("worker-k");
      const [row] = await finished(2, 1);
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
      // The killed worker's step still sleeps: its journaled pid names its process group.
      const meta = await db.query<{ meta: { pid: number } }>(
        "SELECT meta FROM loopgate.events WHERE run_id = 2 AND type = 'step-started' AND effect_id LIKE '%test%'",
      );
      process.kill(-meta.rows[0]!.meta.pid, "SIGKILL");
    });
  },
);
