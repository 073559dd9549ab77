import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { gitIn } from "./test-support/git-in.js";
import { oneCommitRepository } from "./test-support/one-commit-repository.js";

// The runner SIGKILLed around an attempt's commit, on a real repository through the built CLI:
// `resume` runs the cut-off generate step again and ends with one commit for the attempt,
// holding the killed run's work and the rerun's.

beforeAll(requireBuild);

/**
 * Runs a one-task run killed at `at` the first attempt's commit, calls `between` with the
 * workspace, then resumes it.
 */
function killedAndResumed(
  at: "before" | "after",
  mode: "worktree" | "in-place" = "worktree",
  between: (worktree: string) => void = () => undefined,
) {
  const { dir, repo } = oneCommitRepository("loopgate-commit-crash-", "def add(a, b):\n");
  // Each run of the agent appends a line numbered by how often it ran, so the killed run's
  // line and the rerun's can be told apart.
  const agent = join(dir, "agent.sh");
  writeFileSync(
    agent,
    `#!/bin/sh
n=$(( $(cat "${dir}/runs" 2>/dev/null || echo 0) + 1 )); echo $n > "${dir}/runs"
echo "# attempt $LOOPGATE_ITERATION run $n" >> calc.py
`,
    { mode: 0o755 },
  );
  const taskFile = join(repo, "tasks.yaml");
  writeFileSync(
    taskFile,
    stringify({
      workspace: { git: mode },
      steps: { generate: { command: [agent] }, test: { command: "grep -q 'run 2' calc.py" } },
      tasks: [{ id: "t", prompt: "fix add" }],
    }),
  );
  // In place, the task file is committed: a working tree with changes is refused.
  if (mode === "in-place") {
    gitIn(repo, "add", "tasks.yaml");
    gitIn(repo, "commit", "--quiet", "-m", "tasks");
  }
  const db = join(repo, ".loopgate", "journal.db");
  const killed = cli(["run", taskFile, "--db", db, "--quiet"], {
    LOOPGATE_CRASH_AT_ATTEMPT_COMMIT: at,
  });
  const branch = mode === "worktree" ? "loopgate/t" : "main";
  const log = () => gitIn(repo, "log", "--format=%s", branch, "--", "calc.py").split("\n");
  const afterKill = log();
  const worktree = mode === "worktree" ? join(repo, ".loopgate", "worktrees", "t") : repo;
  between(worktree);
  const resumed = cli(["resume", "--db", db, "--quiet"]);
  return { repo, db, taskFile, worktree, killed, afterKill, resumed, log, logAfterResume: log() };
}

const bothRuns = "def add(a, b):\n# attempt 1 run 1\n# attempt 1 run 2\n";

describe("a runner killed around an attempt's commit (built CLI, real repository)", () => {
  it("killed after the generate step and before its commit: resume commits the work left uncommitted with the attempt, once", () => {
    const run = killedAndResumed("before");
    expect(run.killed.signal).toBe("SIGKILL");
    expect(run.afterKill).toEqual(["init"]);
    expect(run.resumed.status).toBe(0);
    expect(run.logAfterResume).toEqual(["loopgate: t attempt 1", "init"]);
    expect(gitIn(run.repo, "show", "loopgate/t:calc.py") + "\n").toBe(bothRuns);
    expect(gitIn(run.worktree, "status", "--porcelain")).toBe("");
  });

  it("killed after the commit and before it was journaled: resume adds to that commit, makes no second one, and journals it", () => {
    const run = killedAndResumed("after");
    expect(run.killed.signal).toBe("SIGKILL");
    expect(run.afterKill).toEqual(["loopgate: t attempt 1", "init"]);
    expect(run.resumed.status).toBe(0);
    expect(run.logAfterResume).toEqual(["loopgate: t attempt 1", "init"]);
    expect(gitIn(run.repo, "show", "loopgate/t:calc.py") + "\n").toBe(bothRuns);
    // The journaled commit is the branch's: the attempt's diff holds both runs' lines.
    const diff = cli(["diff", "t", "1", "--db", run.db]).stdout;
    expect(diff).toContain("+# attempt 1 run 1\n+# attempt 1 run 2\n");
    const head = gitIn(run.repo, "rev-parse", "--short", "loopgate/t");
    expect(cli(["history", "t", "--db", run.db]).stdout).toContain(head);
    expect(readFileSync(join(run.worktree, "calc.py"), "utf8")).toBe(bothRuns);
    // A new run of the task file on the same branch starts after that commit: its attempt 1 is
    // a commit of its own, the earlier run's is not added to.
    expect(cli(["run", run.taskFile, "--db", run.db, "--quiet"]).status).toBe(0);
    expect(run.log()).toEqual(["loopgate: t attempt 1", "loopgate: t attempt 1", "init"]);
  });

  it("in place, killed after the commit: resume adds to that commit on the checked-out branch", () => {
    const run = killedAndResumed("after", "in-place");
    expect(run.killed.signal).toBe("SIGKILL");
    expect(run.afterKill).toEqual(["loopgate: t attempt 1", "init"]);
    expect(run.resumed.status).toBe(0);
    expect(run.logAfterResume).toEqual(["loopgate: t attempt 1", "init"]);
    expect(gitIn(run.repo, "show", "main:calc.py") + "\n").toBe(bothRuns);
    expect(gitIn(run.repo, "status", "--porcelain")).toBe("");
  });

  it("a lock file a git killed mid-commit left: resume stops with one line naming it and what to do, and goes on once it is removed", () => {
    let lock = "";
    const run = killedAndResumed("before", "worktree", (worktree) => {
      lock = resolve(worktree, gitIn(worktree, "rev-parse", "--git-path", "index.lock"));
      writeFileSync(lock, "");
    });
    expect(run.resumed.status).toBe(2);
    expect(run.resumed.stderr).toBe(
      `error: workspace: git add cannot run: ${lock} is there (a git process killed mid-command left it, or one is still running): when no git runs in this repository, remove it (rm '${lock}') and run loopgate again (loopgate resume)\n`,
    );
    expect(run.logAfterResume).toEqual(["init"]);
    rmSync(lock);
    expect(cli(["resume", "--db", run.db, "--quiet"]).status).toBe(0);
    // The killed run's work, the failed resume's rerun and the last one's: one commit, no loss.
    expect(run.log()).toEqual(["loopgate: t attempt 1", "init"]);
    expect(gitIn(run.repo, "show", "loopgate/t:calc.py")).toBe(
      "def add(a, b):\n# attempt 1 run 1\n# attempt 1 run 2\n# attempt 1 run 3",
    );
  });
});
