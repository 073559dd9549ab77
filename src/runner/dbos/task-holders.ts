import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { taskWorkflowId } from "./task-workflow.js";
import { taskOfWorkWorkflow } from "./work-workflow.js";

/** Which executor holds a task, and DBOS's state of the workflow it holds it by. */
export interface TaskHolder {
  readonly executor: string;
  readonly status: string;
}

/**
 * The executor of each of the run's unfinished tasks that a worker holds, from DBOS's rows: the
 * one running the task's work (its steps) when the task has work in flight, else the one its
 * task workflow is `PENDING` on (deciding, or waiting for an answer). A workflow `ENQUEUED`
 * waits for any worker: its row's executor id is the last one's (a `run` that handed it back),
 * not a holder's.
 */
export async function taskHolders(
  client: DBOSClient,
  runId: number,
): Promise<Map<string, TaskHolder>> {
  const tasks = taskWorkflowId(runId, "");
  const rows = await client.listWorkflows({ workflow_id_prefix: `loopgate-run-${runId}-` });
  const holders = new Map<string, TaskHolder>();
  const working = new Set<string>();
  for (const row of rows) {
    if (row.status !== "PENDING") continue;
    const holder = { executor: row.executorId ?? "", status: row.status };
    const worked = taskOfWorkWorkflow(runId, row.workflowID);
    if (worked !== undefined) {
      holders.set(worked, holder);
      working.add(worked);
    } else if (row.workflowID.startsWith(tasks)) {
      const task = row.workflowID.slice(tasks.length);
      if (!working.has(task)) holders.set(task, holder);
    }
  }
  return holders;
}
