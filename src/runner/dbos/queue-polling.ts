/**
 * DBOS's queue polling interval from `LOOPGATE_QUEUE_POLL_MS`, when set to a positive number:
 * DBOS polls a queue once a second, which is most of what a short task waits on PostgreSQL; the
 * tests poll faster. It is the queue's row, so the last worker to launch sets it for all.
 */
export function queuePollingFrom(env: NodeJS.ProcessEnv): { minPollingIntervalMs?: number } {
  const ms = Number(env.LOOPGATE_QUEUE_POLL_MS ?? "");
  return Number.isFinite(ms) && ms > 0 ? { minPollingIntervalMs: ms } : {};
}
