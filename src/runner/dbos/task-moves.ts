import type pg from "pg";
import { TASK_QUEUE, WORK_QUEUE } from "./queues.js";
import { TASK_WORKFLOW } from "./task-workflow.js";
import { WORK_WORKFLOW } from "./work-workflow.js";

/** Puts workflows back on queue `queueName`: DBOS's `resumeWorkflows` with that queue's name. */
export type ResumeOnQueue = (workflowIds: readonly string[], queueName: string) => Promise<void>;

/**
 * A task moved back to the queue — its task workflow's id — and the executor that held it: its
 * task workflow, its work workflow in flight, or both.
 */
export interface MovedTask {
  readonly workflowId: string;
  readonly executorId: string;
}

/**
 * The advisory lock every move takes, and a worker's first heartbeat too: so two live workers
 * never move one workflow twice (the second finds it queued or owned by a live worker), and a
 * worker that comes back does not lose a task a move is putting on the queue meanwhile.
 */
export const MOVE_LOCK = "loopgate task moves";

/**
 * Whether workflow row `w`'s executor is silent: no heartbeat of it younger than the lease it
 * declared, or it said it stopped. An executor that never beat (no row) is silent too.
 */
export const SILENT_OWNER = `NOT EXISTS (
  SELECT 1 FROM loopgate.workers k
   WHERE k.executor_id = w.executor_id AND k.stopped_at IS NULL
     AND k.heartbeat_at > clock_timestamp() - k.lease_ms * interval '1 millisecond')`;

/** Which PENDING task workflows a move takes: an SQL condition on row `w` and its parameters. */
interface Selection {
  readonly where: string;
  readonly params: readonly unknown[];
}

/**
 * Moves the PENDING task and work workflows `selection` picks back onto their queues, under the
 * move lock, and returns their tasks. DBOS's resume does the move: a live worker dequeues and
 * replays each, its finished steps kept and its step in flight run again; a task workflow
 * waiting for its work finds the work's end or its message when it replays.
 */
async function moveUnderLock(
  pool: pg.Pool,
  selection: Selection,
  resume: ResumeOnQueue,
): Promise<MovedTask[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [MOVE_LOCK]);
      const found = await client.query<{
        workflow_uuid: string;
        name: string;
        queue_name: string | null;
        task: string;
        executor_id: string;
      }>(
        `SELECT w.workflow_uuid, w.name, w.queue_name, w.executor_id,
                COALESCE(w.parent_workflow_id, w.workflow_uuid) AS task
           FROM dbos.workflow_status w
          WHERE w.status = 'PENDING' AND w.name = ANY($1) AND ${selection.where}
          ORDER BY task, w.workflow_uuid`,
        [[TASK_WORKFLOW, WORK_WORKFLOW], ...selection.params],
      );
      // Each goes back on the queue it came from: a work workflow's is its run's limit's.
      const byQueue = new Map<string, string[]>();
      for (const row of found.rows) {
        const queue = row.queue_name ?? (row.name === WORK_WORKFLOW ? WORK_QUEUE : TASK_QUEUE);
        byQueue.set(queue, [...(byQueue.get(queue) ?? []), row.workflow_uuid]);
      }
      for (const [queue, ids] of byQueue) await resume(ids, queue);
      await client.query("COMMIT");
      const moved = new Map<string, MovedTask>();
      for (const row of found.rows) {
        if (!moved.has(row.task))
          moved.set(row.task, { workflowId: row.task, executorId: row.executor_id });
      }
      return [...moved.values()];
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}

/**
 * What a live worker does each heartbeat: moves the task and work workflows of its own
 * application version held by silent executors (see `SILENT_OWNER`) back onto the queue.
 */
export function moveSilentExecutorsTasks(
  pool: pg.Pool,
  self: { readonly executorId: string; readonly appVersion: string },
  resume: ResumeOnQueue,
): Promise<MovedTask[]> {
  return moveUnderLock(
    pool,
    {
      where: `w.executor_id <> $2 AND w.application_version = $3 AND ${SILENT_OWNER}`,
      params: [self.executorId, self.appVersion],
    },
    resume,
  );
}

/** `worker --recover EXECUTOR`: moves a silent executor's task and work workflows, of any version. */
export function moveExecutorTasks(
  pool: pg.Pool,
  executorId: string,
  resume: ResumeOnQueue,
): Promise<MovedTask[]> {
  return moveUnderLock(
    pool,
    { where: `w.executor_id = $2 AND ${SILENT_OWNER}`, params: [executorId] },
    resume,
  );
}

/**
 * A stopping worker hands back what it still holds (paused tasks, tasks parked by the stop),
 * while its heartbeat still keeps every other worker's move off them.
 */
export function handBackTasks(
  pool: pg.Pool,
  executorId: string,
  resume: ResumeOnQueue,
): Promise<MovedTask[]> {
  return moveUnderLock(pool, { where: "w.executor_id = $2", params: [executorId] }, resume);
}
