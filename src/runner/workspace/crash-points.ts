/**
 * Test-only kill points of the git crash tests (docs/workspaces.md): where a runner or
 * `loopgate restore` SIGKILLs itself. Never set them in production.
 */
export interface CrashPoints {
  /** Just before or just after an attempt's commit (`LOOPGATE_CRASH_AT_ATTEMPT_COMMIT`). */
  readonly attemptCommit?: "before" | "after";
  /**
   * In a restore, once the later attempts are tagged and before the reset, or once reset and
   * before the restore is journaled (`LOOPGATE_CRASH_AT_RESTORE`).
   */
  readonly restore?: "tagged" | "reset";
}

/** The kill points the environment sets; none unless a test set them. */
export function crashPointsFrom(env: NodeJS.ProcessEnv): CrashPoints {
  const commit = env.LOOPGATE_CRASH_AT_ATTEMPT_COMMIT;
  const restore = env.LOOPGATE_CRASH_AT_RESTORE;
  return {
    ...(commit === "before" || commit === "after" ? { attemptCommit: commit } : {}),
    ...(restore === "tagged" || restore === "reset" ? { restore } : {}),
  };
}
