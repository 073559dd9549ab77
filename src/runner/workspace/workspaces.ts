import { dirname, join, resolve } from "node:path";
import type { RunStep } from "../../core/loop/loop-effect.js";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import type { AttemptCommit, StepOutcome } from "../../core/loop/step-outcome.js";
import type { TaskEntry, TaskFile } from "../../wire/task-file.js";
import { DEFAULT_COMMIT_AUTHOR, type WorkspaceSpec } from "../../wire/workspace-spec.js";
import { LoopgateError } from "../../core/errors.js";
import { DEFAULT_OUTPUT_LIMIT } from "../bounded-output.js";
import type { LoadedRun } from "../load-run.js";
import { commitDiff } from "./commit-diff.js";
import type { CrashPoints } from "./crash-points.js";
import { git, gitFailed, gitOk } from "./git.js";
import { ownFiles } from "./own-files.js";
import { restoreAttempt, type Restored } from "./restore-attempt.js";
import { restoreOf } from "./restore-of.js";
import { mergeTask, removeWorktree } from "./task-end.js";
import {
  hasBranch,
  excludeSpec,
  ignoredOf,
  ownFilesInside,
  repositoryTop,
  resolveBase,
  taskBranch,
  worktreeOf,
} from "./repository.js";
import { workspaceOf } from "./workspace-of.js";

/** A task's workspace once prepared: where its steps run and what its attempts build on. */
interface Place {
  readonly spec: WorkspaceSpec;
  readonly dir: string;
  readonly branch?: string;
  readonly base: string;
  /** The commit the next attempt's diff is taken against: the latest attempt's, or the base. */
  head: string;
}

/** The place of every task when no task of the run has a workspace. */
const NO_PLACE: Promise<Place | undefined> = Promise.resolve(undefined);

/** The commit identity of `Name <email>`, for author and committer both. */
function identity(author: string): Record<string, string> {
  // Split by position, not by a pattern: `(.*) <(.*)>` backtracks quadratically.
  const open = author.lastIndexOf(" <");
  const named = open >= 0 && author.endsWith(">");
  const name = named ? author.slice(0, open) : author;
  const email = named ? author.slice(open + 2, -1) : "";
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
}

/**
 * The git workspaces of a run's tasks (docs/workspaces.md): each is made or found before the
 * task's first step in this drive, and after each generate step the attempt is committed and
 * its diffs read. What an earlier drive journaled (base, latest commit) is picked up from the
 * run's events, so a resumed run diffs against the same commits.
 */
export class Workspaces {
  /** The tasks' entries by id, when any task has a workspace: a run of thousands looks one up per task. */
  private readonly entries: ReadonlyMap<string, TaskEntry> | undefined;
  /** The workspace of each task that has one and has not finished in this drive (see `forget`). */
  private readonly places = new Map<string, Promise<Place | undefined>>();
  /** The journaled base and latest commit of each task, from earlier generate steps. */
  private readonly journaled = new Map<string, AttemptCommit>();
  /** Each task's attempt commits by attempt number, as journaled and made in this drive. */
  private readonly attemptHeads = new Map<string, Map<number, string>>();
  /** The attempt each task's latest answer asked to restore, until its restore is journaled. */
  private readonly pendingRestores = new Map<string, number>();
  /** Worktrees are added one at a time, so two tasks never race on the repository's worktree list. */
  private adding: Promise<unknown> = Promise.resolve();
  /** End actions run one at a time: two merges must not race on the base branch's worktree. */
  private ending: Promise<unknown> = Promise.resolve();
  private readonly own: string[];
  /**
   * The workspace HEAD each task's generate step started from, for a step an earlier drive
   * started and never journaled as finished: the commit a resumed attempt's diff is taken
   * against, and the sign that a commit past it with the attempt's message is that attempt's.
   */
  private readonly interrupted = new Map<string, string>();

  /** The run's task file. */
  private readonly file: TaskFile;
  /** The directory the run's steps run in, in a repository or not. */
  private readonly baseDir: string;

  /** Of the loaded run only its task file and base directory are kept: not its journal as read. */
  constructor(
    loaded: LoadedRun,
    private readonly journalPath: string,
    /** Test-only (docs/workspaces.md): where this process SIGKILLs itself. */
    private readonly crashAt: CrashPoints = {},
  ) {
    this.own = ownFiles(journalPath, dirname(journalPath));
    const file = loaded.file;
    this.file = file;
    this.baseDir = loaded.run.baseDir;
    if (file.workspace !== undefined || file.tasks.some((task) => task.workspace !== undefined)) {
      this.entries = new Map(file.tasks.map((task) => [task.id, task]));
    }
    const started = new Map<string, { taskId: string; head: string }>();
    for (const { event, meta } of loaded.entries) {
      this.note(event);
      if (event.type === "step-started" && typeof meta?.head === "string") {
        started.set(event.effectId, { taskId: event.taskId, head: meta.head });
      } else if (event.type === "step-finished" || event.type === "step-errored") {
        started.delete(event.effectId);
      }
    }
    for (const { taskId, head } of started.values()) this.interrupted.set(taskId, head);
  }

  /** Takes in an event of the run as it is journaled: attempt commits, restores asked and done. */
  note(event: LoopEvent): void {
    if (event.type === "step-finished" && event.outcome.step === "generate") {
      const commit = event.outcome.commit;
      if (commit === undefined) return;
      this.journaled.set(event.taskId, commit);
      this.headsOf(event.taskId).set(event.iteration, commit.head);
    } else if (event.type === "answer-given") {
      const attempt = restoreOf(event.answer);
      if (attempt === undefined) this.pendingRestores.delete(event.taskId);
      else this.pendingRestores.set(event.taskId, attempt);
    } else if (event.type === "attempt-restored") {
      this.pendingRestores.delete(event.taskId);
      const known = this.journaled.get(event.taskId);
      if (known !== undefined) this.journaled.set(event.taskId, { ...known, head: event.commit });
    }
  }

  /** The attempt the task's latest answer asked to restore and that is not restored yet. */
  pendingRestore(taskId: string): number | undefined {
    return this.pendingRestores.get(taskId);
  }

  /** The commit of each of the task's attempts that has one, by attempt number. */
  attemptCommits(taskId: string): ReadonlyMap<number, string> {
    return this.headsOf(taskId);
  }

  /**
   * Resets the task's workspace to attempt `attempt`'s commit: changes not committed yet are
   * committed first (nothing is lost), the commit the workspace was at is tagged, and the next
   * attempt starts from the restored commit. Safe to run again after a crash part-way.
   */
  async restore(taskId: string, attempt: number): Promise<Restored> {
    const place = await this.placeOf(taskId);
    const heads = this.headsOf(taskId);
    const commit = heads.get(attempt);
    if (place === undefined || commit === undefined) {
      throw new LoopgateError(
        "INVALID_INPUT",
        `restore: ${taskId} has no commit of attempt ${attempt} (only a task with a git workspace has: docs/workspaces.md)`,
      );
    }
    await this.commit(place, `loopgate: ${taskId} work kept before restoring attempt ${attempt}`);
    const latest = Math.max(...heads.keys());
    const restored = await restoreAttempt({
      dir: place.dir,
      taskId,
      attempt,
      commit,
      latest,
      latestCommit: heads.get(latest) ?? commit,
      ...(this.crashAt.restore === undefined ? {} : { crashAt: this.crashAt.restore }),
    });
    place.head = commit;
    return restored;
  }

  /**
   * What the task file says becomes of a finished task's worktree workspace: after a proceed,
   * `on_proceed` (merge or squash its branch into the base branch), after an abort, `on_abort`
   * (remove the worktree). Returns the line saying what happened — a conflict or a git failure
   * keeps the branch and says why, it is no error — or null when there is nothing to do.
   */
  async atEnd(taskId: string, action: "proceed" | "abort"): Promise<string | null> {
    const place = await this.placeOf(taskId);
    if (place?.branch === undefined || place.spec.git !== "worktree") return null;
    const mode =
      action === "proceed" ? (place.spec.onProceed ?? "keep") : (place.spec.onAbort ?? "keep");
    if (mode === "keep") return null;
    const task = {
      top: await repositoryTop(this.baseDir),
      dir: place.dir,
      branch: place.branch,
      taskId,
      baseName: place.spec.base ?? "HEAD",
      identity: identity(place.spec.author ?? DEFAULT_COMMIT_AUTHOR),
    };
    const ended = this.ending.then(async () => {
      try {
        return mode === "remove" ? await removeWorktree(task) : await mergeTask(task, mode);
      } catch (error) {
        if (!LoopgateError.is(error)) throw error;
        return `on_${action} ${mode}: ${place.branch} is kept as it is: ${error.message}`;
      } finally {
        if (mode === "remove") this.places.delete(taskId);
      }
    });
    this.ending = ended.catch(() => undefined);
    return await ended;
  }

  private headsOf(taskId: string): Map<number, string> {
    let heads = this.attemptHeads.get(taskId);
    if (heads === undefined) {
      heads = new Map();
      this.attemptHeads.set(taskId, heads);
    }
    return heads;
  }

  /** Where the task's steps run: its workspace, or undefined for the task file's directory. */
  async dirFor(taskId: string): Promise<string | undefined> {
    return (await this.placeOf(taskId))?.dir;
  }

  /** The commit the task's next attempt builds on, journaled with its generate step's start. */
  async headFor(taskId: string): Promise<string | undefined> {
    return (await this.placeOf(taskId))?.head;
  }

  /**
   * After a generate step: commits what the attempt changed (nothing when it changed nothing)
   * and gives the outcome the attempt's commit and its diff against the base, which replaces a
   * diff the step reported. Other steps, and tasks without a workspace, pass unchanged.
   */
  async afterStep(effect: RunStep, outcome: StepOutcome): Promise<StepOutcome> {
    if (outcome.step !== "generate") return outcome;
    const place = await this.placeOf(effect.taskId);
    if (place === undefined) return outcome;
    const previous = place.head;
    const message = `loopgate: ${effect.taskId} attempt ${effect.iteration}`;
    if (this.crashAt.attemptCommit === "before") process.kill(process.pid, "SIGKILL");
    const head = await this.commit(place, message, await this.madeBefore(place, message));
    if (this.crashAt.attemptCommit === "after") process.kill(process.pid, "SIGKILL");
    const limit = this.file.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT;
    const diff = await commitDiff(place.dir, place.base, head, limit);
    const diffFromPrevious = await commitDiff(place.dir, previous, head, limit);
    place.head = head;
    this.headsOf(effect.taskId).set(effect.iteration, head);
    const commit: AttemptCommit = {
      ...(place.branch === undefined ? {} : { branch: place.branch }),
      base: place.base,
      head,
      committed: head !== previous,
      diffFromPrevious,
    };
    return { ...outcome, diff, commit };
  }

  /**
   * Whether HEAD is this attempt's commit made by a runner killed before it journaled it: HEAD
   * moved past the attempt's starting commit and has the attempt's message. Then the attempt's
   * step, run again, adds to that commit instead of making a second one.
   */
  private async madeBefore(place: Place, message: string): Promise<boolean> {
    const at = await gitOk(place.dir, ["log", "-1", "--format=%H%n%s"]);
    const [head, subject] = at.split("\n");
    return head !== place.head && subject === message;
  }

  /**
   * Forgets a task that finished in this drive: nothing of it is asked again, and a run of
   * thousands of tasks keeps no place for each. Its workspace stays as `atEnd` left it.
   */
  forget(taskId: string): void {
    this.places.delete(taskId);
    this.journaled.delete(taskId);
    this.attemptHeads.delete(taskId);
    this.interrupted.delete(taskId);
  }

  private placeOf(taskId: string): Promise<Place | undefined> {
    // No task of the run has a workspace: nothing to prepare, nothing to remember.
    if (this.entries === undefined) return NO_PLACE;
    let place = this.places.get(taskId);
    if (place === undefined) {
      place = this.prepare(taskId);
      // A failed preparation is tried again by the next step, not remembered.
      place.catch(() => this.places.delete(taskId));
      this.places.set(taskId, place);
    }
    return place;
  }

  private async prepare(taskId: string): Promise<Place | undefined> {
    const file = this.file;
    const entry = this.entries?.get(taskId);
    const spec = entry === undefined ? undefined : workspaceOf(file, entry);
    if (spec === undefined) return undefined;
    const top = await repositoryTop(this.baseDir);
    const known = this.journaled.get(taskId);
    const base = known?.base ?? (await resolveBase(top, spec.base ?? "HEAD"));
    const started = this.interrupted.get(taskId) ?? known?.head;
    if (spec.git === "in-place") {
      const branch = await git(top, ["symbolic-ref", "--short", "-q", "HEAD"]);
      const head = started ?? (await gitOk(top, ["rev-parse", "HEAD"]));
      const onBranch = branch.code === 0 ? { branch: branch.stdout.trim() } : {};
      return { spec, dir: top, ...onBranch, base, head };
    }
    const branch = taskBranch(taskId);
    const dir = await this.worktree(top, spec, taskId, base);
    const head = started ?? (await gitOk(dir, ["rev-parse", "HEAD"]));
    return { spec, dir, branch, base, head };
  }

  /**
   * The task's worktree: the one that has its branch checked out (a resumed run, or a crash
   * after `git worktree add` and before anything was journaled), else a new one — on the
   * branch if it exists, else on a new branch from the base.
   */
  private worktree(top: string, spec: WorkspaceSpec, taskId: string, base: string) {
    const made = this.adding.then(async () => {
      const branch = taskBranch(taskId);
      const existing = await worktreeOf(top, branch);
      if (existing !== undefined) return existing;
      const root =
        spec.dir === undefined
          ? join(dirname(this.journalPath), "worktrees")
          : resolve(this.baseDir, spec.dir);
      const dir = join(root, taskId);
      const from = (await hasBranch(top, branch)) ? [dir, branch] : ["-b", branch, dir, base];
      await gitOk(top, ["worktree", "add", "--quiet", ...from]);
      return dir;
    });
    this.adding = made.catch(() => undefined);
    return made;
  }

  /**
   * Stages everything but loopgate's own files and commits it — into HEAD with `amend` — and
   * returns the workspace's HEAD.
   */
  private async commit(place: Place, message: string, amend = false): Promise<string> {
    // git refuses an exclude pathspec naming a file it ignores (`.loopgate/` ignores itself):
    // only loopgate's files it would add are excluded.
    const own = ownFilesInside(place.dir, this.own);
    const ignored = own.length === 0 ? [] : await ignoredOf(place.dir, own);
    const excluded = own.filter((path) => !ignored.includes(path));
    const pathspec = ["--", ".", ...excluded.map(excludeSpec)];
    await gitOk(place.dir, ["add", "--all", ...pathspec]);
    const check = ["diff", "--cached", "--quiet"];
    const staged = await git(place.dir, check);
    if (staged.code > 1) throw gitFailed(check, staged);
    if (staged.code === 1) {
      const author = place.spec.author ?? DEFAULT_COMMIT_AUTHOR;
      const into = amend ? ["--amend", "--no-edit"] : ["--message", message];
      await gitOk(place.dir, ["commit", "--no-verify", "--quiet", ...into], {
        env: identity(author),
      });
    }
    return await gitOk(place.dir, ["rev-parse", "HEAD"]);
  }
}
