import { DBOSClient } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, postgresAvailability } from "../../test-support/postgres.js";
import { migratePostgresStore } from "./migrate-store.js";
import { waitingOtherVersions } from "./other-versions.js";
import { moveExecutorTasks, moveSilentExecutorsTasks } from "./task-moves.js";
import { TASK_WORKFLOW } from "./task-workflow.js";
import { TASK_QUEUE, WORK_QUEUE, workQueueOf, type WorkQueue } from "./queues.js";
import { WORK_WORKFLOW } from "./work-workflow.js";

// The move of a silent executor's task workflows onto the queue, against a real server: task
// rows are made as DBOS makes them (enqueued by a client), then set to what a dead or live
// executor leaves; no worker runs, so a moved workflow stays queued for the test to see.

const availability = postgresAvailability();

describe.skipIf(availability.skip !== false)(
  `moving a silent executor's tasks${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let pools: pg.Pool[] = [];
    let client: DBOSClient;
    const quiet = {
      info: () => undefined,
      debug: () => undefined,
      warn: console.warn,
      error: console.error,
    };

    /** Task workflows of `version` held (PENDING) by `executor`. */
    const held = async (ids: readonly string[], executor: string, version = "v1") => {
      for (const workflowID of ids) {
        await client.enqueue(
          { queueName: TASK_QUEUE, workflowName: TASK_WORKFLOW, workflowID, appVersion: version },
          1,
          workflowID,
        );
      }
      await pools[0]!.query(
        "UPDATE dbos.workflow_status SET status = 'PENDING', executor_id = $1 WHERE workflow_uuid = ANY($2)",
        [executor, ids],
      );
    };

    /** A heartbeat row: silent for `silentMs`, with `leaseMs`, stopped or not. */
    const worker = (executor: string, silentMs: number, leaseMs: number, stopped = false) =>
      pools[0]!.query(
        `INSERT INTO loopgate.workers (executor_id, host, pid, app_version, lease_ms, heartbeat_at, stopped_at)
         VALUES ($1, 'h', 1, 'v1', $2, clock_timestamp() - $3 * interval '1 millisecond', CASE WHEN $4 THEN clock_timestamp() END)`,
        [executor, leaseMs, silentMs, stopped],
      );

    const statuses = async (ids: readonly string[]) =>
      (
        await pools[0]!.query<{ workflow_uuid: string; status: string }>(
          "SELECT workflow_uuid, status FROM dbos.workflow_status WHERE workflow_uuid = ANY($1) ORDER BY 1",
          [ids],
        )
      ).rows.map((row) => `${row.workflow_uuid} ${row.status}`);

    /** A work workflow of task workflow `task`, held by `executor` (PENDING). */
    const heldWork = async (
      id: string,
      task: string,
      executor: string,
      queue: WorkQueue = workQueueOf(1, undefined),
    ) => {
      await client.enqueue(
        {
          queueName: queue.name,
          workflowName: WORK_WORKFLOW,
          workflowID: id,
          appVersion: "v1",
          ...(queue.partition === undefined ? {} : { queuePartitionKey: queue.partition }),
        },
        task,
      );
      await pools[0]!.query(
        "UPDATE dbos.workflow_status SET status = 'PENDING', executor_id = $1, parent_workflow_id = $2 WHERE workflow_uuid = $3",
        [executor, task, id],
      );
    };

    const queues = async (ids: readonly string[]) =>
      (
        await pools[0]!.query<{
          workflow_uuid: string;
          status: string;
          queue_name: string;
          queue_partition_key: string | null;
        }>(
          "SELECT workflow_uuid, status, queue_name, queue_partition_key FROM dbos.workflow_status WHERE workflow_uuid = ANY($1) ORDER BY 1",
          [ids],
        )
      ).rows.map((row) =>
        [row.workflow_uuid, row.status, row.queue_name, row.queue_partition_key ?? ""]
          .join(" ")
          .trim(),
      );

    const resume = async (ids: readonly string[], queueName: string) => {
      await client.resumeWorkflows([...ids], { queueName });
    };

    beforeAll(async () => {
      url = await freshDatabase();
      await migratePostgresStore(url);
      pools = [new pg.Pool({ connectionString: url }), new pg.Pool({ connectionString: url })];
      client = await DBOSClient.create({
        systemDatabaseUrl: url,
        applicationName: "loopgate",
        logger: quiet,
      });
    });

    afterAll(async () => {
      await client?.destroy();
      await Promise.all(pools.map((pool) => pool.end()));
    });

    it("moves each silent executor's task once when two live workers look at the same time, and leaves a live one's", async () => {
      const dead = ["a-1", "a-2", "a-3", "a-4"];
      const stopped = ["b-1"];
      const live = ["c-1", "c-2"];
      await held(dead, "dead");
      await held(stopped, "stopped");
      await held(live, "live");
      await worker("dead", 5_000, 1_000);
      // Stopped a moment ago: what it still holds moves at once, whatever its lease.
      await worker("stopped", 0, 60_000, true);
      // Live for the whole file: the last test counts its tasks as not waiting.
      await worker("live", 500, 60_000);
      const [first, second] = await Promise.all(
        pools.map((pool, index) =>
          moveSilentExecutorsTasks(pool, { executorId: `w${index}`, appVersion: "v1" }, resume),
        ),
      );
      const moved = [...first!, ...second!].map((task) => task.workflowId).sort();
      expect(moved).toEqual([...dead, ...stopped]);
      // The lock: one worker moved them all, the other found nothing left to move.
      expect([first!.length, second!.length].sort()).toEqual([0, 5]);
      expect(await statuses([...dead, ...stopped, ...live])).toEqual([
        ...[...dead, ...stopped].map((id) => `${id} ENQUEUED`),
        ...live.map((id) => `${id} PENDING`),
      ]);
    });

    it("moves a silent executor's work workflows back to their work queue, and names each task once", async () => {
      // d-1: the task workflow and its work, both held by the dead executor; d-2: only the work
      // (its task workflow waits for it on a live worker); d-3: work of a run limited to 2 at
      // once, on that limit's queue in the run's partition.
      await held(["d-1"], "dead-w");
      await heldWork("d-1-work", "d-1", "dead-w");
      await held(["d-2"], "live-w");
      await heldWork("d-2-work", "d-2", "dead-w");
      const limited = workQueueOf(7, 2);
      await client.registerQueue(limited.name, limited.settings);
      await held(["d-3"], "live-w");
      await heldWork("d-3-work", "d-3", "dead-w", limited);
      await worker("dead-w", 5_000, 1_000);
      await worker("live-w", 0, 60_000);
      const moved = await moveSilentExecutorsTasks(
        pools[0]!,
        { executorId: "w0", appVersion: "v1" },
        resume,
      );
      expect(moved).toEqual([
        { workflowId: "d-1", executorId: "dead-w" },
        { workflowId: "d-2", executorId: "dead-w" },
        { workflowId: "d-3", executorId: "dead-w" },
      ]);
      expect(await queues(["d-1", "d-1-work", "d-2", "d-2-work", "d-3-work"])).toEqual([
        `d-1 ENQUEUED ${TASK_QUEUE}`,
        `d-1-work ENQUEUED ${WORK_QUEUE}`,
        `d-2 PENDING ${TASK_QUEUE}`,
        `d-2-work ENQUEUED ${WORK_QUEUE}`,
        "d-3-work ENQUEUED loopgate-work-limit-2 7",
      ]);
      await pools[0]!.query(
        "UPDATE dbos.workflow_status SET status = 'SUCCESS' WHERE workflow_uuid LIKE 'd-%'",
      );
    });

    it("leaves another version's task to a worker of that version, says it waits, and --recover moves it", async () => {
      await held(["old-1"], "gone", "v0");
      // An executor that never beat counts as silent.
      expect(
        await moveSilentExecutorsTasks(pools[0]!, { executorId: "w0", appVersion: "v1" }, resume),
      ).toEqual([]);
      expect(await waitingOtherVersions(pools[0]!, "v1")).toEqual([{ version: "v0", tasks: 1 }]);
      expect(await moveExecutorTasks(pools[0]!, "gone", resume)).toEqual([
        { workflowId: "old-1", executorId: "gone" },
      ]);
      expect(await statuses(["old-1"])).toEqual(["old-1 ENQUEUED"]);
      expect(await waitingOtherVersions(pools[0]!, "v1")).toEqual([{ version: "v0", tasks: 1 }]);
      // A worker of v0 sees the first test's five queued tasks of v1 wait, and not its own.
      expect(await waitingOtherVersions(pools[0]!, "v0")).toEqual([{ version: "v1", tasks: 5 }]);
    });
  },
);
