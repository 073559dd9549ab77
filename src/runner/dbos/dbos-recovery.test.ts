import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import type pg from "pg";
import { stringify } from "yaml";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { postgresAvailability } from "../../test-support/postgres.js";
import { TASK_QUEUE } from "./queues.js";
import { TASK_WORKFLOW } from "./task-workflow.js";
import { workWorkflowId } from "./work-workflow.js";
import {
  ANSWERED_PASS,
  finished,
  taskRows,
  workRow,
  untilFile,
  untilTasks,
  WorkerProcesses,
  type WorkerProcess,
} from "./test-support/worker-processes.js";
import { migratedStore } from "./test-support/migrated-store.js";

// Workers that die, are stopped, or run another version: heartbeats, the lease, the move of a
// silent executor's tasks, `worker --recover`, the SIGTERM drain (docs/distributed.md). The
// full size (three workers, twenty tasks) runs with LOOPGATE_DISTRIBUTED_FULL=1
// (`npm run test:distributed`); the default suite runs two workers and ten tasks.

const availability = postgresAvailability();
const FULL = process.env.LOOPGATE_DISTRIBUTED_FULL === "1";
const SIZE = FULL ? { workers: 3, tasks: 20 } : { workers: 2, tasks: 10 };
/**
 * The lease the tests' workers declare: short, so a move is seen within seconds, yet long enough
 * that a live worker's heartbeat is never late by that much on a loaded two-core machine.
 */
const LEASE_MS = 2_000;
const LEASE = `${LEASE_MS}ms`;

/** An event row of the journal. */
interface EventRow {
  readonly task_id: string;
  readonly type: string;
  readonly effect_id: string;
  readonly event: { readonly decision?: unknown };
  readonly meta: { readonly pid?: number; readonly executor?: string } | null;
}

describe.skipIf(availability.skip !== false)(
  `workers that die or stop on a PostgreSQL store${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let db: pg.Client;
    let dir = "";
    const workers = new WorkerProcesses(() => url);
    /** Steps a test leaves hanging (a killed worker's), killed at the end by process group. */
    const orphans: number[] = [];

    /**
     * A task file of `tasks`, each step marking its start in the trace; the step `hang` names
     * (`task/step`) sleeps `hangSeconds` the first time it runs, the generate step `slowGenerate`
     * seconds for every task.
     */
    const taskFile = (
      name: string,
      tasks: readonly string[],
      options: { hang?: string; hangSeconds?: number; slowGenerate?: number } = {},
    ) => {
      const trace = join(dir, `${name}.trace`);
      const once = join(dir, `${name}.once`);
      const by = join(dir, `${name}.by`);
      const mark = `echo "$LOOPGATE_TASK_ID $LOOPGATE_STEP $LOOPGATE_ITERATION" >> '${trace}'; echo "$TEST_WORKER $LOOPGATE_TASK_ID $LOOPGATE_STEP" >> '${by}'`;
      const hang =
        options.hang === undefined
          ? ""
          : `if [ "$LOOPGATE_TASK_ID/$LOOPGATE_STEP" = '${options.hang}' ] && [ ! -e '${once}' ]; then touch '${once}'; sleep ${options.hangSeconds ?? 60}; fi; `;
      const slow = options.slowGenerate === undefined ? "" : `sleep ${options.slowGenerate}; `;
      const document = {
        iteration_control: { max_iterations: 3 },
        steps: {
          generate: { command: `${mark}; ${hang}${slow}echo generated` },
          test: { command: `${mark}; ${hang}echo ok` },
          review: { command: `${mark}; ${hang}echo '{"status": "approve", "feedback": ""}'` },
        },
        tasks: tasks.map((id) => ({ id, prompt: `do ${id}` })),
      };
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, stringify(document));
      return {
        file,
        hung: () => existsSync(once),
        trace: () => readFileSync(trace, "utf8").trim().split("\n"),
        /** `WORKER TASK STEP` of every step run. */
        by: () => readFileSync(by, "utf8").trim().split("\n"),
      };
    };

    /** Submits a task file; returns its run id. */
    const submit = (file: string) => {
      const submitted = cli(["run", file, "--store", url, "--submit-only"], {}, dir);
      expect([submitted.status, submitted.stderr]).toEqual([0, ""]);
      return Number(/submitted run (\d+)/.exec(submitted.stdout)?.[1]);
    };

    const events = async (runId: number) =>
      (
        await db.query<EventRow>(
          "SELECT task_id, type, effect_id, event, meta FROM loopgate.events WHERE run_id = $1 ORDER BY seq",
          [runId],
        )
      ).rows;

    /** How many times each `task step iteration` ran, by the trace. */
    const runs = (trace: readonly string[]) => {
      const counts = new Map<string, number>();
      for (const line of trace) counts.set(line, (counts.get(line) ?? 0) + 1);
      return counts;
    };

    /** A task's story with its own id taken out: the same for tasks that went the same way. */
    const story = (rows: readonly EventRow[], task: string) =>
      rows
        .filter((row) => row.task_id === task)
        .map((row) =>
          `${row.type} ${row.effect_id} ${JSON.stringify(row.event.decision ?? null)}`.replaceAll(
            JSON.stringify(task),
            "TASK",
          ),
        );

    beforeAll(async () => {
      requireBuild();
      dir = mkdtempSync(join(tmpdir(), "loopgate-recovery-"));
      ({ url, db } = await migratedStore());
    });

    // A test that failed leaves no worker to take the next test's tasks.
    afterEach(() => workers.killAll());

    afterAll(async () => {
      for (const pid of orphans) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
      await db?.end();
      rmSync(dir, { recursive: true, force: true });
    });

    it(`${SIZE.workers} workers share ${SIZE.tasks} tasks; one killed mid-step has its tasks moved by another within the lease, only the step in flight run again`, async () => {
      const ids = [
        ...Array.from({ length: SIZE.tasks - 1 }, (_, index) => `t${index + 1}`),
        "slow",
      ];
      const tasks = taskFile("share", ids, { hang: "slow/test" });
      const names = Array.from({ length: SIZE.workers }, (_, index) => `share-${index}`);
      const started = await Promise.all(
        names.map((name) => workers.start(name, ["--lease", LEASE, "--concurrency", "2"])),
      );
      const byName = new Map(names.map((name, index) => [name, started[index]!]));
      const runId = submit(tasks.file);
      await untilFile(tasks.hung, "the slow task's test step");
      const slowId = `loopgate-run-${runId}-task-slow`;
      // The slow task's steps (its one pass through generate → test → review) are a work
      // workflow; the worker that runs its test step holds it.
      const slowWork = workWorkflowId(runId, "slow", 0, 0);
      const owner = (await workRow(db, slowWork))!;
      const victim = byName.get(owner.executor_id)!;
      const killedAt = Date.now();
      await workers.stop(victim, "SIGKILL");
      for (const deadline = Date.now() + 30_000; ; await sleep(50)) {
        if ((await workRow(db, slowWork))?.executor_id !== owner.executor_id) break;
        expect(Date.now()).toBeLessThan(deadline);
      }
      const movedMs = Date.now() - killedAt;
      const rows = await finished(db, runId, SIZE.tasks);
      process.stdout.write(
        `recovery: ${SIZE.workers} workers, ${SIZE.tasks} tasks, lease ${LEASE}: the killed worker's task was taken by another ${movedMs} ms after the kill\n`,
      );
      // The lease, a heartbeat round (a third of it) and a queue poll (about a second), and room.
      expect(movedMs).toBeLessThan(LEASE_MS * (1 + 1 / 3) + 1_000 + 4_000);
      expect(rows.map((row) => row.status)).toEqual(ids.map(() => "SUCCESS"));
      const stories = await events(runId);
      const slowStarts = stories.filter(
        (row) =>
          row.task_id === "slow" && row.type === "step-started" && row.effect_id.includes('"test"'),
      );
      orphans.push(slowStarts[0]!.meta!.pid!);
      // Every step ran once, but those in flight on the killed worker (the slow test among
      // them, and any whose process ended but whose result DBOS had not recorded yet): twice.
      const counts = runs(tasks.trace());
      const startedByVictim = new Set(
        tasks
          .by()
          .filter((line) => line.startsWith(`${owner.executor_id} `))
          .map((line) => line.slice(owner.executor_id.length + 1)),
      );
      const twice: string[] = [];
      for (const id of ids) {
        for (const step of ["generate", "test", "review"]) {
          const ran = counts.get(`${id} ${step} 1`);
          if (ran === 2 && startedByVictim.has(`${id} ${step}`)) twice.push(`${id} ${step}`);
          else expect([id, step, ran, tasks.by()]).toEqual([id, step, 1, tasks.by()]);
        }
      }
      expect(twice).toContain("slow test");
      // The journal means what an uninterrupted run's does: every task's story and decisions
      // are the same, the re-run's step-started not appended twice.
      for (const id of ids) expect(story(stories, id)).toEqual(story(stories, "t1"));
      expect(story(stories, "t1")).toHaveLength(7);
      // Each worker ran some steps.
      const ranBy = new Set(stories.map((row) => row.meta?.executor).filter(Boolean));
      expect([...ranBy].sort()).toEqual(names);
      const survivors = started.filter((worker) => worker !== victim);
      expect(survivors.map((worker) => worker.stderr()).join("")).toMatch(
        new RegExp(
          `moved \\d+ tasks? of silent executor ${owner.executor_id} to the task queue: .*${slowId}`,
        ),
      );
      expect(await Promise.all(survivors.map((worker) => workers.stop(worker)))).toEqual(
        survivors.map(() => 0),
      );
    });

    it("worker --recover refuses a live executor, and moves a silent one's tasks to the queue; a twin of a live executor is refused", async () => {
      const tasks = taskFile("recover", ["lost"], { hang: "lost/generate" });
      const dead = await workers.start("recover-dead", ["--lease", LEASE]);
      const runId = submit(tasks.file);
      await untilFile(tasks.hung, "the generate step");
      const refused = cli(["worker", "--recover", "recover-dead", "--store", url]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(
        /^error: worker: executor recover-dead is alive \(pid \d+ on .+, last heartbeat \d+\.\d s ago, lease 2 s\): stop it, or wait for its lease to run out\n$/,
      );
      // A second process under a live executor's id would be handed the same workflows.
      const twin = cli(["worker", "--store", url, "--executor", "recover-dead"]);
      expect([twin.status, twin.stdout]).toEqual([2, ""]);
      expect(twin.stderr).toMatch(
        /^error: executor recover-dead is already running \(pid \d+ on .+, last heartbeat \d+\.\d s ago\): give each worker its own --executor\n$/,
      );
      await workers.stop(dead, "SIGKILL");
      // No live worker: nothing moves the task until --recover does, once the lease ran out.
      await sleep(LEASE_MS + 200);
      expect((await taskRows(db, runId)).map((row) => row.status)).toEqual(["PENDING"]);
      const moved = cli(["worker", "--recover", "recover-dead", "--store", url]);
      expect([moved.status, moved.stderr]).toEqual([0, ""]);
      expect(moved.stdout).toBe(
        `moved 1 task of executor recover-dead to the task queue: loopgate-run-${runId}-task-lost\n`,
      );
      expect((await taskRows(db, runId)).map((row) => row.status)).toEqual(["ENQUEUED"]);
      const again = await workers.start("recover-again", ["--lease", LEASE]);
      const [row] = await finished(db, runId, 1);
      expect(row!.executor_id).toBe("recover-again");
      expect(tasks.trace()).toEqual([
        "lost generate 1",
        "lost generate 1",
        "lost test 1",
        "lost review 1",
      ]);
      orphans.push((await events(runId))[0]!.meta!.pid!);
      expect(await workers.stop(again)).toBe(0);
    });

    it("an answer sent while the worker holding the paused task is dead is used once a live worker takes the task, and no step runs again", async () => {
      const trace = join(dir, "dead-answer.trace");
      const document = {
        iteration_control: { max_iterations: 1 },
        steps: {
          generate: { command: `echo "$LOOPGATE_STEP" >> '${trace}'; echo generated` },
          test: { command: `echo "$LOOPGATE_STEP" >> '${trace}'; exit 1` },
        },
        tasks: [{ id: "asked", prompt: "do asked" }],
      };
      const file = join(dir, "dead-answer.yaml");
      writeFileSync(file, stringify(document));
      const holder = await workers.start("answer-dead", ["--lease", LEASE]);
      const runId = submit(file);
      const types = async () => (await events(runId)).map((row) => row.type);
      for (const deadline = Date.now() + 30_000; ; await sleep(50)) {
        if ((await types()).includes("decision-recorded")) break;
        expect(Date.now()).toBeLessThan(deadline);
      }
      await workers.stop(holder, "SIGKILL");
      // Nobody holds the task now: the answer is stored for its workflow, not taken by anyone.
      const answered = cli(
        ["answer", "asked", "--abort", "--run", String(runId), "--store", url],
        {},
        dir,
      );
      expect([answered.status, answered.stderr]).toEqual([0, ""]);
      expect((await taskRows(db, runId)).map((row) => row.status)).toEqual(["PENDING"]);
      const live = await workers.start("answer-live", ["--lease", LEASE]);
      const [row] = await finished(db, runId, 1);
      expect(row!.executor_id).toBe("answer-live");
      const story = await events(runId);
      expect(story.map((event) => event.type)).toEqual(ANSWERED_PASS);
      // The answer was journaled once, by `answer`, and the decision it led to made after it.
      expect(story.filter((event) => event.type === "answer-given")).toHaveLength(1);
      expect(readFileSync(trace, "utf8").trim().split("\n")).toEqual(["generate", "test"]);
      expect(live.stderr()).toMatch(
        /moved 1 task of silent executor answer-dead to the task queue/,
      );
      expect(await workers.stop(live)).toBe(0);
    });

    it("on SIGTERM a worker lets its step finish, or cuts it off after --grace, hands its tasks back and exits 0", async () => {
      const drained = taskFile("drain", ["drain"], { slowGenerate: 1 });
      const patient = await workers.start("drain-patient", ["--lease", LEASE, "--grace", "20s"]);
      const drainRun = submit(drained.file);
      await untilFile(() => existsSync(join(dir, "drain.trace")), "the generate step");
      const stoppedAt = Date.now();
      expect(await workers.stop(patient)).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(8_000);
      expect(patient.stderr()).toMatch(
        /worker drain-patient: stopped \(SIGTERM, 1 task handed back to the queue\)\n$/,
      );
      // The step in flight finished and was journaled: it does not run again.
      expect((await events(drainRun)).map((row) => row.type)).toEqual([
        "step-started",
        "step-finished",
      ]);
      // The next worker may take the drained task too: it holds it, or has finished its next step.
      const cut = taskFile("cut", ["cut"], { hang: "cut/generate", hangSeconds: 30 });
      const hasty = await workers.start("drain-hasty", ["--lease", LEASE, "--grace", "200ms"]);
      const cutRun = submit(cut.file);
      await untilFile(cut.hung, "the generate step");
      expect(await workers.stop(hasty)).toBe(0);
      expect(hasty.stderr()).toMatch(
        /worker drain-hasty: stopped \(SIGTERM, 1 step cut off, [12] tasks? handed back to the queue\)\n$/,
      );
      // A step cut off is not judged: no step-finished, and it runs again.
      expect((await events(cutRun)).map((row) => row.type)).toEqual(["step-started"]);
      expect((await taskRows(db, drainRun)).map((row) => row.status)).not.toEqual(["PENDING"]);
      expect((await taskRows(db, cutRun)).map((row) => row.status)).toEqual(["ENQUEUED"]);
      const next = await workers.start("drain-next", ["--lease", LEASE]);
      await finished(db, drainRun, 1);
      await finished(db, cutRun, 1);
      expect(drained.trace()).toEqual(["drain generate 1", "drain test 1", "drain review 1"]);
      expect(cut.trace()).toEqual([
        "cut generate 1",
        "cut generate 1",
        "cut test 1",
        "cut review 1",
      ]);
      expect(await workers.stop(next)).toBe(0);
    });

    it("a worker says on stderr, in one line, that queued work of another version waits for a worker of that version", async () => {
      const tasks = taskFile("versions", ["old"]);
      const runId = submit(tasks.file);
      await untilTasks(db, runId, (rows) => rows.length === 1);
      // The run's task as a worker of an older loopgate would have left it on the queue.
      const client = await DBOSClient.create({
        systemDatabaseUrl: url,
        applicationName: "loopgate",
      });
      try {
        await client.cancelWorkflow(`loopgate-run-${runId}-task-old`);
        await client.enqueue(
          {
            queueName: TASK_QUEUE,
            workflowName: TASK_WORKFLOW,
            workflowID: "loopgate-old-version-task",
            appVersion: "loopgate-0.0.1-w0",
          },
          runId,
          "old",
        );
        const worker: WorkerProcess = await workers.start("versions-new", ["--lease", LEASE]);
        await untilFile(() => worker.stderr().includes("loopgate-0.0.1-w0"), "the version line");
        const lines = worker
          .stderr()
          .split("\n")
          .filter((line) => line.includes("loopgate-0.0.1-w0"));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          /^warning: worker versions-new: 1 task of application version loopgate-0\.0\.1-w0 waits, and this worker runs loopgate-[^ ]+-w3: start a worker of loopgate-0\.0\.1-w0 to finish them, or fork them to loopgate-[^ ]+-w3 \(docs\/distributed\.md#upgrading\)$/,
        );
        expect(await workers.stop(worker)).toBe(0);
        await client.cancelWorkflow("loopgate-old-version-task");
      } finally {
        await client.destroy();
      }
    });
  },
);
