import { loopgateVersion } from "../loopgate-version.js";

/**
 * The task workflow's format. DBOS replays a recovered workflow's recorded steps by their place,
 * so a worker can only carry on a workflow whose code records the same steps in the same order.
 * Bump this when a change to `task-workflow.ts`, `work-workflow.ts` (or to the effects the pure loop asks for)
 * changes which DBOS steps a task records, their order, names, arguments or results.
 */
export const TASK_WORKFLOW_FORMAT = 3;

/**
 * The DBOS application version loopgate's workflows run under: loopgate's own version and the
 * workflow format. DBOS hands a queued or recovered workflow only to a worker of its version.
 */
export function applicationVersion(): string {
  return `loopgate-${loopgateVersion()}-w${TASK_WORKFLOW_FORMAT}`;
}
