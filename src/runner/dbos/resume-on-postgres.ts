import { hostname } from "node:os";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { nextEffect } from "../../core/loop/effects-of.js";
import { alive } from "../lease.js";
import type { LoadedRun } from "../load-run.js";
import type { PostgresRunStore } from "../store/postgres/postgres-run-store.js";
import { TASK_QUEUE, workOnRun, type PostgresRunResult } from "./dbos-driver.js";
import { taskWorkflowId } from "./task-workflow.js";

/** What `resume` does with a run on a PostgreSQL store. */
export interface PostgresResumeRequest {
  readonly store: PostgresRunStore;
  readonly loaded: LoadedRun;
  /** The fixed task file as read, secrets and all (`resume --task-file`). */
  readonly document?: unknown;
  readonly concurrency?: number | undefined;
  /** Where resume says what it moved and what it left to a live worker. */
  readonly say: (line: string) => void;
  /** Where DBOS's warnings and errors go. */
  readonly warn: (line: string) => void;
}

/**
 * Whether `executor` is a `run` or `resume` of this host that is gone: their executor ids are
 * `HOST-PID`. A worker's id says nothing of its life (until workers report heartbeats), so only
 * these are taken for dead.
 */
function deadHere(executor: string | undefined): boolean {
  const prefix = `${hostname()}-`;
  if (executor === undefined || !executor.startsWith(prefix)) return false;
  const pid = executor.slice(prefix.length);
  return /^\d+$/.test(pid) && !alive(Number(pid));
}

/**
 * Carries a run on from the store, DBOS's way. For each unfinished task: a step error is
 * journaled as resumed and its workflow (which ended) rewound to its start, so it folds the
 * task's journal and runs the step again with the run's task file as it is now; a workflow that
 * ended in error is rewound the same way; a cancelled one, or one held by a dead `run` or
 * `resume` of this host, is put back on the task queue, where DBOS replays it (its finished
 * steps not run again). Then this process works on the run until no task can move, as `run`
 * does. A task another worker holds is left to it.
 */
export async function resumeOnPostgres(request: PostgresResumeRequest): Promise<PostgresRunResult> {
  const { store, loaded, say } = request;
  const runId = loaded.run.id;
  const client = await store.dbos();
  const unfinished = loaded.state.tasks.filter((task) => task.phase.name !== "done");
  for (const task of unfinished) {
    const id = taskWorkflowId(runId, task.id);
    const effect = nextEffect(loaded.state, task);
    if (effect?.kind === "resume-step") {
      const place = loaded.entries.filter((entry) => entry.event.taskId === task.id).length;
      const base = { effectId: effect.id, taskId: task.id, iteration: effect.iteration };
      await store.journal.append(runId, place, {
        type: "step-resumed",
        ...base,
        step: effect.step,
      });
    }
    const row = await client.getWorkflow(id);
    const status = row?.status;
    if (status === "SUCCESS" || status === "ERROR") {
      await client.rewindWorkflow(id, { startStep: 0, queueName: TASK_QUEUE });
      say(`run ${runId}: ${task.id} goes on from its journal (its workflow had ended)`);
    } else if (status === "CANCELLED" || (status === "PENDING" && deadHere(row?.executorId))) {
      await client.resumeWorkflow(id, { queueName: TASK_QUEUE });
      say(
        `run ${runId}: ${task.id} is back on the task queue (${status === "CANCELLED" ? "its workflow was cancelled" : `its runner ${row?.executorId} is gone`})`,
      );
    } else if (status === "PENDING") {
      say(`run ${runId}: ${task.id} is held by worker ${row?.executorId}: left to it`);
    }
  }
  return workOnRun(store.journal, runId, loaded.plan, { ...request, url: store.url }, () =>
    Promise.resolve(
      unfinished.map((task) => DBOS.retrieveWorkflow(taskWorkflowId(runId, task.id))),
    ),
  );
}
