import type { DBOS } from "@dbos-inc/dbos-sdk";

/** A queue's settings as DBOS registers them (the SDK exports no name for the type). */
type QueueSettings = NonNullable<Parameters<typeof DBOS.registerQueue>[1]>;

/**
 * The queue task workflows are enqueued on and workers take them from. It has no limit: a task
 * workflow runs no step itself (its work workflows on a work queue do) and may wait for an
 * answer for days.
 */
export const TASK_QUEUE = "loopgate-tasks";

/**
 * The work queue of runs without a run-wide limit (no `run --concurrency`): a task's own
 * workflow waits for answers on the task queue, which has no limit, so a human wait holds no
 * place here.
 */
export const WORK_QUEUE = "loopgate-work";

/**
 * How many work workflows (a task's steps between two decisions) one process holds at once on a
 * work queue: DBOS's `workerConcurrency`, so a burst of tasks spreads over the workers instead of
 * going all to the first that polls. It is one value for every worker (the queue's row), so it is
 * loopgate's, not a flag: `--concurrency` limits steps, within it. A task waiting for an answer
 * holds none of these places.
 */
export const TASKS_PER_WORKER = 8;

/** The work queue's settings: one row, registered alike by every worker. */
export const WORK_QUEUE_SETTINGS: QueueSettings = { workerConcurrency: TASKS_PER_WORKER };

/** The prefix of the work queues that carry a run-wide limit, the limit after it. */
const LIMITED_WORK_QUEUE = "loopgate-work-limit-";

/** Where a run's work workflows are enqueued: a queue, and the run's partition of it if any. */
export interface WorkQueue {
  readonly name: string;
  /** DBOS's partition key: the run's id, on a queue of run-wide limits. */
  readonly partition?: string;
  /** The queue's settings, as every process that registers it registers them. */
  readonly settings: QueueSettings;
}

/**
 * The work queue of run `runId` whose own `--concurrency` is `limit`. A run with a limit goes on
 * the queue of that limit, partitioned by run: DBOS's `partitionConcurrency` bounds the work
 * workflows running at once in each partition across every worker, so each run gets its own
 * limit from one queue per limit value (a queue's limits are one row shared by all workers, so
 * runs of different limits cannot share one). The queue's name says its settings, so every
 * registration of it agrees.
 */
export function workQueueOf(runId: number, limit: number | undefined): WorkQueue {
  if (limit === undefined) {
    return { name: WORK_QUEUE, settings: WORK_QUEUE_SETTINGS };
  }
  return {
    name: `${LIMITED_WORK_QUEUE}${limit}`,
    partition: String(runId),
    settings: { workerConcurrency: TASKS_PER_WORKER, partitionConcurrency: limit },
  };
}
