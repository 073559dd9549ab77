import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { RunStep } from "../../core/loop/loop-effect.js";
import type { GenerateOutcome } from "../../core/loop/step-outcome.js";
import { decodeTaskFile } from "../../wire/task-file.js";
import type { JournalEntry } from "../journal.js";
import type { LoadedRun } from "../load-run.js";
import { gitIn } from "./test-support/git-in.js";
import { checkWorkspaces } from "./preflight.js";
import { workspaceOf } from "./workspace-of.js";
import { Workspaces } from "./workspaces.js";

/** A repository with one commit, and a run of task `t` in a worktree as the driver loads it. */
function project(workspace: Record<string, unknown> = { git: "worktree" }) {
  const repo = mkdtempSync(join(tmpdir(), "loopgate-wsu-"));
  gitIn(repo, "init", "--quiet", "--initial-branch=main");
  writeFileSync(join(repo, "calc.py"), "x = 1\n");
  gitIn(repo, "add", ".");
  gitIn(repo, "commit", "--quiet", "-m", "init");
  const file = decodeTaskFile({
    workspace,
    steps: { generate: { command: ["true"] } },
    tasks: [{ id: "t", prompt: "p" }],
  });
  const loaded = (entries: JournalEntry[] = []) =>
    ({ file, entries, run: { baseDir: repo } }) as unknown as LoadedRun;
  return { repo, file, loaded, journal: join(repo, ".loopgate", "journal.db") };
}

const generated: GenerateOutcome = {
  step: "generate",
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  spend: 0,
  tokens: 0,
  output: "",
  diff: "reported by the step",
};

const effect = (iteration: number) =>
  ({
    kind: "run-step",
    id: `t:${iteration}:generate`,
    taskId: "t",
    iteration,
    step: "generate",
  }) as unknown as RunStep;

describe("workspace in the task file", () => {
  it("is file-wide or per task, field by field", () => {
    const file = decodeTaskFile({
      workspace: { git: "worktree", base: "main" },
      steps: { generate: { command: ["true"] } },
      tasks: [
        { id: "a", prompt: "p" },
        { id: "b", prompt: "p", workspace: { git: "in-place", author: "A B <a@b>" } },
      ],
    });
    const [a, b] = file.tasks;
    expect(a && workspaceOf(file, a)).toEqual({ git: "worktree", base: "main" });
    expect(b && workspaceOf(file, b)).toEqual({
      git: "in-place",
      base: "main",
      author: "A B <a@b>",
    });
  });

  it("refuses an unknown kind, an author that is no `Name <email>` and a base that reads as an option", () => {
    const file = (workspace: unknown) => () =>
      decodeTaskFile({
        workspace,
        steps: { generate: { command: ["true"] } },
        tasks: [{ id: "t", prompt: "p" }],
      });
    expect(file({ git: "clone" })).toThrow(/workspace\.git.*worktree or in-place/);
    expect(file({ git: "worktree", author: "nobody" })).toThrow(/workspace\.author.*Name <email>/);
    expect(file({ git: "worktree", base: "--all" })).toThrow(/workspace\.base/);
    expect(file({ git: "worktree", path: "x" })).toThrow(/workspace/);
  });
});

describe("Workspaces", () => {
  it("commits each attempt past the user's hooks, replaces a reported diff by git's, and commits nothing when nothing changed", async () => {
    const { repo, loaded, journal } = project();
    // Hooks that refuse every commit, where git looks for them by default and by config.
    const hooks = mkdtempSync(join(tmpdir(), "loopgate-hooks-"));
    for (const folder of [join(repo, ".git", "hooks"), hooks]) {
      for (const hook of ["pre-commit", "commit-msg"]) {
        writeFileSync(join(folder, hook), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
      }
    }
    gitIn(repo, "config", "core.hooksPath", hooks);
    onTestFinished(() => rmSync(hooks, { recursive: true, force: true }));
    const workspaces = new Workspaces(loaded(), journal);
    const dir = await workspaces.dirFor("t");
    expect(dir).toBe(join(repo, ".loopgate", "worktrees", "t"));
    appendFileSync(join(dir ?? "", "calc.py"), "y = 2\n");
    const first = await workspaces.afterStep(effect(1), generated);
    expect(first.diff).toContain("+y = 2");
    expect(first.step === "generate" && first.commit?.committed).toBe(true);
    const second = await workspaces.afterStep(effect(2), generated);
    expect(second.step === "generate" && second.commit).toMatchObject({
      committed: false,
      diffFromPrevious: "",
      branch: "loopgate/t",
    });
    expect(second.diff).toBe(first.diff);
    expect(gitIn(repo, "log", "--format=%s", "loopgate/t").split("\n")).toEqual([
      "loopgate: t attempt 1",
      "init",
    ]);
  });

  it("reuses the task's worktree after a crash between its creation and anything journaled, and diffs from the journaled commits on resume", async () => {
    const { repo, loaded, journal } = project();
    const dir = (await new Workspaces(loaded(), journal).dirFor("t")) ?? "";
    // A new drive that journaled nothing finds the worktree of the branch and goes on there.
    const again = new Workspaces(loaded(), journal);
    expect(await again.dirFor("t")).toBe(dir);
    appendFileSync(join(dir, "calc.py"), "y = 2\n");
    const first = await again.afterStep(effect(1), generated);
    // Resumed from a journal holding attempt 1: attempt 2's diff is taken from its commit.
    const entry = {
      seq: 1,
      event: { type: "step-finished", taskId: "t", iteration: 1, outcome: first },
    };
    const resumed = new Workspaces(loaded([entry as unknown as JournalEntry]), journal);
    appendFileSync(join(dir, "calc.py"), "z = 3\n");
    const second = await resumed.afterStep(effect(2), generated);
    expect(second.step === "generate" && second.commit?.diffFromPrevious).toContain("+z = 3");
    expect(second.step === "generate" && second.commit?.diffFromPrevious).not.toContain("+y = 2");
    expect(gitIn(repo, "worktree", "list").split("\n")).toHaveLength(2);
  });

  it("journals diffs redacted and bounded to output_limit_bytes, head and tail", async () => {
    const { repo, journal } = project();
    const file = decodeTaskFile({
      workspace: { git: "worktree" },
      output_limit_bytes: 4096,
      steps: { generate: { command: ["true"] } },
      tasks: [{ id: "t", prompt: "p" }],
    });
    const loaded = { file, entries: [], run: { baseDir: repo } } as unknown as LoadedRun;
    const workspaces = new Workspaces(loaded, journal);
    const dir = (await workspaces.dirFor("t")) ?? "";
    const token = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index}`);
    writeFileSync(join(dir, "config.txt"), `token = ${token}\n${lines.join("\n")}\nlast line\n`);
    const outcome = await workspaces.afterStep(effect(1), generated);
    const diffs = [
      outcome.diff ?? "",
      (outcome.step === "generate" && outcome.commit?.diffFromPrevious) || "",
    ];
    for (const diff of diffs) {
      expect(diff).not.toContain(token);
      expect(diff).toContain("+token = ");
      expect(diff).toContain("+last line");
      expect(diff).toMatch(/\[… loopgate left out \d+ bytes of diff …\]/);
      expect(diff.length).toBeLessThan(4096 + 200);
    }
    // The commit itself keeps the file whole: only what loopgate journals is cut and redacted.
    expect(gitIn(repo, "show", "loopgate/t:config.txt")).toContain(token);
  });

  it("forgets a finished task: asked again, it prepares the task's workspace anew", async () => {
    const { repo, loaded, journal } = project();
    const workspaces = new Workspaces(loaded(), journal);
    const dir = (await workspaces.dirFor("t")) ?? "";
    gitIn(repo, "worktree", "remove", dir);
    workspaces.forget("t");
    expect(await workspaces.dirFor("t")).toBe(dir);
    expect(existsSync(join(dir, "calc.py"))).toBe(true);
  });

  it("leaves a task without a workspace as it is", async () => {
    const { file, repo } = project();
    const bare = decodeTaskFile({ steps: file.steps, tasks: [{ id: "t", prompt: "p" }] });
    const workspaces = new Workspaces(
      { file: bare, entries: [], run: { baseDir: repo } } as unknown as LoadedRun,
      "/x/journal.db",
    );
    expect(await workspaces.dirFor("t")).toBeUndefined();
    expect(await workspaces.afterStep(effect(1), generated)).toBe(generated);
  });

  it("checks before a run: a base that is no commit, a task id git cannot name a branch after, in-place tasks side by side, on_proceed or on_abort in place", async () => {
    const { repo, journal } = project();
    const file = (workspace: Record<string, unknown>, ids = ["t"]) =>
      decodeTaskFile({
        workspace,
        steps: { generate: { command: ["true"] } },
        tasks: ids.map((id) => ({ id, prompt: "p" })),
      });
    await expect(
      checkWorkspaces(file({ git: "worktree", base: "nope" }), repo, journal, 1),
    ).rejects.toThrow(`workspace.base: "nope" is not a commit in ${repo}`);
    await expect(
      checkWorkspaces(file({ git: "worktree" }, ["a..b"]), repo, journal, 1),
    ).rejects.toThrow('task id "a..b" cannot name the git branch loopgate/a..b');
    await expect(
      checkWorkspaces(file({ git: "in-place" }, ["a", "b"]), repo, journal, 2),
    ).rejects.toThrow("tasks a, b would share one working tree at --concurrency 2");
    await expect(
      checkWorkspaces(file({ git: "in-place" }, ["a", "b"]), repo, journal, 1),
    ).resolves.toBeUndefined();
    await expect(
      checkWorkspaces(file({ git: "in-place", on_proceed: "squash" }), repo, journal, 1),
    ).rejects.toThrow('workspace.on_proceed: "squash" needs git: worktree');
    await expect(
      checkWorkspaces(file({ git: "in-place", on_abort: "remove" }), repo, journal, 1),
    ).rejects.toThrow('workspace.on_abort: "remove" needs git: worktree');
  });
});
