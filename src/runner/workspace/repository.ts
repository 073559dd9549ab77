import { relative, resolve, isAbsolute } from "node:path";
import { LoopgateError } from "../../core/errors.js";
import { git, gitFailed, gitOk } from "./git.js";

/** One line naming the field and saying what to do: exit 2, before anything runs. */
export function workspaceError(message: string): LoopgateError {
  return new LoopgateError("INVALID_INPUT", message);
}

/** The top directory of the git repository `dir` is in; outside one, an error saying what to do. */
export async function repositoryTop(dir: string): Promise<string> {
  const result = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (result.code !== 0) {
    throw workspaceError(
      `workspace: ${dir} is not in a git repository: run git init and commit there, or drop workspace from the task file`,
    );
  }
  return result.stdout.trim();
}

/** The commit `base` names in the repository, as a full id. */
export async function resolveBase(top: string, base: string): Promise<string> {
  const result = await git(top, [
    "rev-parse",
    "--verify",
    "--quiet",
    "--end-of-options",
    `${base}^{commit}`,
  ]);
  if (result.code !== 0) {
    throw workspaceError(
      `workspace.base: ${JSON.stringify(base)} is not a commit in ${top} (a repository without commits has none: commit first)`,
    );
  }
  return result.stdout.trim();
}

/** The branch a task's attempts go on in a worktree workspace. */
export function taskBranch(taskId: string): string {
  return `loopgate/${taskId}`;
}

/** Refuses a task id git cannot use in a branch name (`a..b`, `x.lock`). */
export async function checkBranchName(top: string, taskId: string): Promise<void> {
  const result = await git(top, ["check-ref-format", "--branch", taskBranch(taskId)]);
  if (result.code !== 0) {
    throw workspaceError(
      `workspace: task id ${JSON.stringify(taskId)} cannot name the git branch ${taskBranch(taskId)}: rename the task`,
    );
  }
}

/**
 * Pathspecs leaving out loopgate's own files (journal, step files, worktrees) where they lie
 * inside `dir`: they are never part of an attempt.
 */
export function ownFilesExcluded(dir: string, own: readonly string[]): string[] {
  return ownFilesInside(dir, own).map(excludeSpec);
}

/** The pathspec leaving `path` (relative to the top) out. */
export function excludeSpec(path: string): string {
  return `:(exclude,top)${path}`;
}

/** Which of `paths` (relative to `dir`) git ignores there. */
export async function ignoredOf(dir: string, paths: readonly string[]): Promise<string[]> {
  const args = ["check-ignore", "--", ...paths];
  const result = await git(dir, args);
  // Exit 1: none of them is ignored.
  if (result.code > 1) throw gitFailed(args, result);
  return result.stdout.split("\n").filter((line) => line !== "");
}

/** Loopgate's own files that lie inside `dir`, relative to it. */
export function ownFilesInside(dir: string, own: readonly string[]): string[] {
  return own.flatMap((path) => {
    const inside = relative(dir, resolve(path));
    return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? [] : [inside];
  });
}

/** The first uncommitted change in `dir` (loopgate's own files left out), or null when clean. */
export async function firstUncommitted(
  dir: string,
  own: readonly string[],
): Promise<string | null> {
  const args = [
    "status",
    "--porcelain",
    "--untracked-files=all",
    "--",
    ".",
    ...ownFilesExcluded(dir, own),
  ];
  const result = await git(dir, args);
  if (result.code !== 0) throw gitFailed(args, result);
  const first = result.stdout.split("\n").find((line) => line.trim() !== "");
  return first === undefined ? null : first.slice(3);
}

/** The worktree that has `branch` checked out, if any (stale entries pruned first). */
export async function worktreeOf(top: string, branch: string): Promise<string | undefined> {
  await gitOk(top, ["worktree", "prune"]);
  const listing = await gitOk(top, ["worktree", "list", "--porcelain"]);
  let path: string | undefined;
  for (const line of listing.split("\n")) {
    if (line.startsWith("worktree ")) path = line.slice("worktree ".length);
    else if (line === `branch refs/heads/${branch}`) return path;
  }
  return undefined;
}

/** Whether the repository has the local branch. */
export async function hasBranch(top: string, branch: string): Promise<boolean> {
  const result = await git(top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
  return result.code === 0;
}
