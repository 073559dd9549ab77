/**
 * The tag that keeps a task's later attempts reachable when an earlier one is restored:
 * `loopgate/<task>/attempt-<M>-<commit>`, M the latest attempt. The commit in the name makes
 * it unique across runs of the same task file and the same on every try of one restore.
 */
export function restoreTag(taskId: string, latestAttempt: number, commit: string): string {
  return `loopgate/${taskId}/attempt-${latestAttempt}-${commit.slice(0, 12)}`;
}
