import type pg from "pg";
import { SILENT_OWNER } from "./task-moves.js";
import { TASK_WORKFLOW } from "./task-workflow.js";
import { WORK_WORKFLOW } from "./work-workflow.js";

/** Task workflows of one application version that no worker of that version is carrying out. */
export interface WaitingVersion {
  readonly version: string;
  readonly tasks: number;
}

/**
 * The tasks of versions other than `appVersion` that wait for a worker: their task or work
 * workflow queued, or held by a silent executor. DBOS hands them only to a worker of their version, so a worker of
 * another version would otherwise pass them over without a word.
 */
export async function waitingOtherVersions(
  pool: pg.Pool,
  appVersion: string,
): Promise<WaitingVersion[]> {
  const found = await pool.query<{ version: string | null; tasks: string }>(
    `SELECT w.application_version AS version,
            count(DISTINCT COALESCE(w.parent_workflow_id, w.workflow_uuid)) AS tasks
       FROM dbos.workflow_status w
      WHERE w.name = ANY($1) AND w.application_version IS DISTINCT FROM $2
        AND (w.status = 'ENQUEUED' OR (w.status = 'PENDING' AND ${SILENT_OWNER}))
      GROUP BY 1 ORDER BY 1`,
    [[TASK_WORKFLOW, WORK_WORKFLOW], appVersion],
  );
  return found.rows.map((row) => ({
    version: row.version ?? "(none)",
    tasks: Number(row.tasks),
  }));
}

/** The one stderr line about work of another version. */
export function otherVersionLine(
  executorId: string,
  appVersion: string,
  waiting: WaitingVersion,
): string {
  const tasks = waiting.tasks === 1 ? "1 task" : `${waiting.tasks} tasks`;
  const verb = waiting.tasks === 1 ? "waits" : "wait";
  return `worker ${executorId}: ${tasks} of application version ${waiting.version} ${verb}, and this worker runs ${appVersion}: start a worker of ${waiting.version} to finish them, or fork them to ${appVersion} (docs/distributed.md#upgrading)`;
}
