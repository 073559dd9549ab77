import { dirname } from "node:path";
import type { TaskFile } from "../../wire/task-file.js";
import { ownFiles } from "./own-files.js";
import {
  checkBranchName,
  firstUncommitted,
  repositoryTop,
  resolveBase,
  workspaceError,
} from "./repository.js";
import { workspaceOf } from "./workspace-of.js";

/**
 * Checks every task's workspace before a run is created, so a run that cannot have its
 * workspaces never starts (exit 2, one line): a git repository around the task file, a base
 * that is a commit, task ids git can name a branch after, and for `in-place` a clean working
 * tree and no other in-place task running beside it.
 */
export async function checkWorkspaces(
  file: TaskFile,
  baseDir: string,
  journalPath: string,
  concurrency: number,
): Promise<void> {
  const inPlace: string[] = [];
  for (const entry of file.tasks) {
    const spec = workspaceOf(file, entry);
    if (spec === undefined) continue;
    const top = await repositoryTop(baseDir);
    await resolveBase(top, spec.base ?? "HEAD");
    if (spec.git === "worktree") {
      await checkBranchName(top, entry.id);
      continue;
    }
    inPlace.push(entry.id);
    if ((spec.onProceed ?? "keep") !== "keep" || (spec.onAbort ?? "keep") !== "keep") {
      const [field, value] =
        (spec.onProceed ?? "keep") === "keep"
          ? ["on_abort", spec.onAbort]
          : ["on_proceed", spec.onProceed];
      throw workspaceError(
        `workspace.${field}: ${JSON.stringify(value)} needs git: worktree (in place, the attempts are on your own branch and directory): use git: worktree, or ${field}: keep`,
      );
    }
    const change = await firstUncommitted(top, ownFiles(journalPath, dirname(journalPath)));
    if (change !== null) {
      throw workspaceError(
        `workspace git: in-place: ${top} has uncommitted changes (${change}): commit or stash them first, or use git: worktree`,
      );
    }
  }
  if (concurrency > 1 && inPlace.length > 1) {
    throw workspaceError(
      `workspace git: in-place: tasks ${inPlace.join(", ")} would share one working tree at --concurrency ${concurrency}: use git: worktree, or --concurrency 1`,
    );
  }
}
