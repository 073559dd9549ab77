import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { nextEffect } from "../../core/loop/effects-of.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";
import { applicationVersion } from "./application-version.js";
import { APPLICATION } from "./dbos-driver.js";
import { wholeRunState } from "./whole-run-state.js";
import type { PostgresJournal } from "./postgres-journal.js";
import { TASK_QUEUE } from "./queues.js";
import { TASK_WORKFLOW, taskOfTaskWorkflow } from "./task-workflow.js";

/** A paused task moved to this loopgate's version: its task workflow and the version it had. */
export interface UpgradedTask {
  readonly workflowId: string;
  readonly from: string;
}

/**
 * `db upgrade-paused`: moves every task paused for an answer whose workflow is of another
 * application version to this loopgate's version, keeping its workflow id (answers are sent to
 * it). A paused task has no work in flight, and a task workflow begins by folding its task's
 * journal, so DBOS's rewind to the start under the new version carries the task on from its
 * journal to the same wait, whatever the old version recorded; DBOS rewinds only an ended
 * workflow, so it is cancelled first. A task that is not paused (it runs, or waits for a fixed
 * task file) is left to its version's workers.
 */
export async function upgradePausedTasks(
  journal: PostgresJournal,
  url: string,
): Promise<UpgradedTask[]> {
  const version = applicationVersion();
  const found = await journal.pool.query<{ workflow_uuid: string; application_version: string }>(
    `SELECT workflow_uuid, application_version FROM dbos.workflow_status
      WHERE name = $1 AND status IN ('PENDING', 'ENQUEUED')
        AND application_version IS DISTINCT FROM $2
      ORDER BY workflow_uuid`,
    [TASK_WORKFLOW, version],
  );
  const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: APPLICATION });
  try {
    const upgraded: UpgradedTask[] = [];
    // Each run folded once, however many of its tasks wait.
    const states = new Map<number, LoopState>();
    const stateOf = async (runId: number) => {
      const known = states.get(runId);
      if (known !== undefined) return known;
      const plan = planOf(decodeTaskFile((await journal.run(runId)).document));
      const state = await wholeRunState(journal, plan, runId);
      states.set(runId, state);
      return state;
    };
    for (const row of found.rows) {
      const named = taskOfTaskWorkflow(row.workflow_uuid);
      if (named === undefined) continue;
      const state = await stateOf(named.runId);
      const task = state.tasks.find((candidate) => candidate.id === named.taskId);
      if (task === undefined || nextEffect(state, task)?.kind !== "await-answer") continue;
      await client.cancelWorkflows([row.workflow_uuid], { cancelChildren: true });
      await client.rewindWorkflow(row.workflow_uuid, {
        startStep: 0,
        applicationVersion: version,
        queueName: TASK_QUEUE,
      });
      upgraded.push({ workflowId: row.workflow_uuid, from: row.application_version });
    }
    return upgraded;
  } finally {
    await client.destroy();
  }
}
