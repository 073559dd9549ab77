import { git, gitFailed, gitOk } from "./git.js";
import { restoreTag } from "./restore-tag.js";

/** What a restore did: the commit brought back, the one it replaced, the tag keeping that one. */
export interface Restored {
  readonly attempt: number;
  readonly commit: string;
  readonly replaced: string;
  readonly tag?: string;
}

/** What to restore, where: the workspace's directory, already committed (see Workspaces.restore). */
export interface RestoreRequest {
  readonly dir: string;
  readonly taskId: string;
  readonly attempt: number;
  /** The attempt's journaled commit. */
  readonly commit: string;
  /** The task's latest attempt, for the tag's name. */
  readonly latest: number;
  /** The latest attempt's commit: the tag an earlier try made holds it. */
  readonly latestCommit: string;
  /** Test-only (docs/workspaces.md): SIGKILL this process once tagged, or once reset. */
  readonly crashAt?: "tagged" | "reset";
}

/**
 * Resets the workspace's branch and files to the attempt's commit (`git reset --hard`) after
 * tagging the commit it is at, so the later attempts stay reachable. Done twice, it does the
 * same: a workspace already at the commit is left as it is and the tag is never moved.
 */
export async function restoreAttempt(request: RestoreRequest): Promise<Restored> {
  const { dir, taskId, attempt, commit, latest } = request;
  const head = await gitOk(dir, ["rev-parse", "HEAD"]);
  if (head === commit) return { attempt, commit, ...(await earlierTag(request, head)) };
  const tag = restoreTag(taskId, latest, head);
  const tagArgs = ["tag", "--no-sign", tag, head];
  const tagged = await git(dir, tagArgs);
  // Made by an earlier try of this restore: the name holds the commit, so it points right.
  if (tagged.code !== 0 && !tagged.stderr.includes("already exists")) {
    throw gitFailed(tagArgs, tagged);
  }
  if (request.crashAt === "tagged") process.kill(process.pid, "SIGKILL");
  await gitOk(dir, ["reset", "--hard", "--quiet", commit]);
  if (request.crashAt === "reset") process.kill(process.pid, "SIGKILL");
  return { attempt, commit, replaced: head, tag };
}

/**
 * What a workspace already at the attempt's commit replaced: when an earlier try of this
 * restore was cut off after its reset, the tag it made (on the latest attempt, or on the work
 * kept after it) and that tag's commit; else nothing was replaced.
 */
async function earlierTag(request: RestoreRequest, head: string) {
  const { dir, taskId, latest, latestCommit } = request;
  if (latestCommit === head) return { replaced: head };
  const pattern = `${restoreTag(taskId, latest, "")}*`;
  const names = await gitOk(dir, ["tag", "--list", pattern, "--contains", latestCommit]);
  const tag = names.split("\n").find((name) => name !== "");
  if (tag === undefined) return { replaced: head };
  return { replaced: await gitOk(dir, ["rev-parse", `${tag}^{commit}`]), tag };
}
