import type { OnProceed } from "../../wire/workspace-spec.js";
import { git, gitOk } from "./git.js";
import { worktreeOf } from "./repository.js";

/** A finished task's worktree workspace, as `on_proceed` and `on_abort` act on it. */
export interface FinishedTask {
  readonly top: string;
  readonly dir: string;
  readonly branch: string;
  readonly taskId: string;
  /** What the task file calls its base (`HEAD` when it names none): the branch to merge into. */
  readonly baseName: string;
  /** The identity of the commits a merge or a squash makes. */
  readonly identity: Readonly<Record<string, string>>;
}

/** The short name of the branch `name` stands for (`HEAD`: the one checked out), or null for a tag or commit. */
async function branchNamed(top: string, name: string): Promise<string | null> {
  const result = await git(top, ["rev-parse", "--symbolic-full-name", name]);
  const ref = result.stdout.trim();
  return result.code === 0 && ref.startsWith("refs/heads/")
    ? ref.slice("refs/heads/".length)
    : null;
}

/** Whether commit `a` is an ancestor of (or is) commit `b`. */
async function isAncestor(top: string, a: string, b: string): Promise<boolean> {
  return (await git(top, ["merge-base", "--is-ancestor", a, b])).code === 0;
}

/** The tree of a clean merge of `ours` and `theirs`, or the files that conflict. */
async function mergedTree(
  top: string,
  ours: string,
  theirs: string,
): Promise<{ tree: string } | { conflicts: string[] } | { failed: string }> {
  const result = await git(top, ["merge-tree", "--write-tree", "--name-only", ours, theirs]);
  const [tree = "", ...rest] = result.stdout.split("\n");
  if (result.code === 0) return { tree };
  // Exit 1: conflicts, the files named after the tree up to the first blank line.
  if (result.code === 1) {
    const end = rest.indexOf("");
    return { conflicts: rest.slice(0, end < 0 ? rest.length : end).slice(0, 5) };
  }
  return { failed: result.stderr.trim().split("\n")[0] ?? `exit ${result.code}` };
}

/**
 * `on_proceed: merge | squash`: the task's branch into the branch its base names —
 * fast-forward when it can, else a merge commit (merge), or one commit on the base branch with
 * the task's whole change (squash). Built without touching any working tree (`git merge-tree`),
 * then moved onto the base branch: `merge --ff-only` in the worktree that has it checked out,
 * `update-ref` when none has. A conflict or a base that is no branch keeps the task's branch
 * as it is; the returned line says what happened either way.
 */
export async function mergeTask(task: FinishedTask, mode: Exclude<OnProceed, "keep">) {
  const { top, branch } = task;
  const kept = (why: string) =>
    `on_proceed ${mode}: the branch ${branch} is kept, not ${mode === "merge" ? "merged" : "squashed"}: ${why}`;
  const target = await branchNamed(top, task.baseName);
  if (target === null) return kept(`its base ${task.baseName} is not a branch`);
  const tip = await gitOk(top, ["rev-parse", `refs/heads/${target}`]);
  const head = await gitOk(top, ["rev-parse", `refs/heads/${branch}`]);
  if (await isAncestor(top, head, tip))
    return `on_proceed ${mode}: ${branch} is in ${target} already`;
  let next = head;
  if (mode === "squash" || !(await isAncestor(top, tip, head))) {
    const merged = await mergedTree(top, tip, head);
    if ("conflicts" in merged) {
      return kept(`it conflicts with ${target} in ${merged.conflicts.join(", ")}`);
    }
    if ("failed" in merged)
      return kept(`git merge-tree failed (git 2.38 or later is needed): ${merged.failed}`);
    if (merged.tree === (await gitOk(top, ["rev-parse", `${tip}^{tree}`]))) {
      return `on_proceed ${mode}: ${target} has ${branch}'s change already`;
    }
    const parents = mode === "merge" ? ["-p", tip, "-p", head] : ["-p", tip];
    const message =
      mode === "merge"
        ? `loopgate: merge ${branch}`
        : `loopgate: ${task.taskId} (its attempts squashed)`;
    next = await gitOk(top, ["commit-tree", merged.tree, ...parents, "-m", message], {
      env: task.identity,
    });
  }
  const checkedOut = await worktreeOf(top, target);
  const moved =
    checkedOut === undefined
      ? await git(top, ["update-ref", `refs/heads/${target}`, next, tip])
      : await git(checkedOut, ["merge", "--ff-only", "--quiet", next]);
  if (moved.code !== 0) {
    return kept(`${target} could not be moved: ${moved.stderr.trim().split("\n")[0] ?? ""}`);
  }
  const how = next === head ? "fast-forward" : mode === "merge" ? "merge commit" : "one commit";
  return `on_proceed ${mode}: ${branch} ${mode === "merge" ? "merged" : "squashed"} into ${target} (${how} ${next.slice(0, 12)}); the branch is kept`;
}

/** `on_abort: remove`: the task's worktree goes (never by force), its branch stays. */
export async function removeWorktree(task: FinishedTask): Promise<string> {
  const removed = await git(task.top, ["worktree", "remove", task.dir]);
  if (removed.code !== 0) {
    return `on_abort remove: the worktree ${task.dir} is kept: ${removed.stderr.trim().split("\n")[0] ?? ""}`;
  }
  return `on_abort remove: worktree ${task.dir} removed; the branch ${task.branch} is kept (git branch -D ${task.branch} deletes it)`;
}
