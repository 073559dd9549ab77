import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { gitIn } from "./test-support/git-in.js";
import { oneCommitRepository } from "./test-support/one-commit-repository.js";

// on_proceed and on_abort through the built CLI, on one real repository and one run of five
// tasks: m fast-forwards main, n merges into it with a merge commit, s squashes its two
// attempts onto it after that, c conflicts with m (its branch is kept, the task still proceeded), and x is
// aborted and its worktree removed, its branch kept.

beforeAll(requireBuild);

function project() {
  const { dir, repo } = oneCommitRepository("loopgate-end-", "a\nb\nc\n");
  // n and c start from main as it was, then wait until m is merged, so they must merge with it.
  const agent = join(dir, "agent.sh");
  writeFileSync(
    agent,
    `#!/bin/sh
waitm() { until git -C "${repo}" log --format=%s main | grep -q "m attempt"; do sleep 0.1; done; }
case "$LOOPGATE_TASK_ID" in
  m) sed -i 's/^a$/a-m/' calc.py ;;
  n) echo n > n.txt; waitm ;;
  c) sed -i 's/^a$/a-c/' calc.py; waitm ;;
  s) echo "s$LOOPGATE_ITERATION" >> s.txt
     until git -C "${repo}" log --format=%s main | grep -q "merge loopgate/n"; do sleep 0.1; done ;;
  x) echo x > x.txt ;;
esac
`,
    { mode: 0o755 },
  );
  const taskFile = join(repo, "tasks.yaml");
  writeFileSync(
    taskFile,
    stringify({
      workspace: { git: "worktree", base: "main", on_proceed: "merge", on_abort: "remove" },
      iteration_control: { max_iterations: 2 },
      steps: {
        generate: { command: [agent] },
        // s passes at its second attempt; x never does.
        test: {
          command:
            'case "$LOOPGATE_TASK_ID" in x) exit 1 ;; s) test "$(wc -l < s.txt)" = 2 ;; esac',
        },
      },
      tasks: [
        { id: "m", prompt: "p" },
        { id: "n", prompt: "p" },
        { id: "c", prompt: "p" },
        { id: "s", prompt: "p", workspace: { git: "worktree", on_proceed: "squash" } },
        { id: "x", prompt: "p", iteration_control: { max_iterations: 1 } },
      ],
    }),
  );
  return { repo, taskFile, db: join(repo, ".loopgate", "journal.db") };
}

describe("on_proceed and on_abort (built CLI, real git)", () => {
  const p = project();
  let history = "";
  beforeAll(() => {
    const run = cli(["run", p.taskFile, "--db", p.db, "--concurrency", "3", "--quiet"]);
    expect(run.status).toBe(3);
    expect(cli(["answer", "x", "--abort", "--db", p.db]).status).toBe(0);
    const resumed = cli(["resume", "--db", p.db, "--json", "--quiet"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.status).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { tasks: { task_id: string; outcome: string }[] };
    expect(summary.tasks.map((task) => `${task.task_id} ${task.outcome}`)).toEqual([
      "m proceeded",
      "n proceeded",
      "c proceeded",
      "s proceeded",
      "x aborted",
    ]);
    history = cli(["history", "--db", p.db]).stdout;
  });

  it("merges: a fast-forward when it can, else a merge commit; the branches stay", () => {
    const m = gitIn(p.repo, "rev-parse", "loopgate/m");
    expect(history).toContain(
      `on_proceed merge: loopgate/m merged into main (fast-forward ${m.slice(0, 12)}); the branch is kept`,
    );
    expect(history).toMatch(/loopgate\/n merged into main \(merge commit [0-9a-f]{12}\)/);
    const merge = gitIn(p.repo, "log", "--merges", "--format=%s %P", "main").split("\n");
    expect(merge).toEqual([
      `loopgate: merge loopgate/n ${gitIn(p.repo, "rev-parse", "main~2")} ${gitIn(p.repo, "rev-parse", "loopgate/n")}`,
    ]);
    // main's own working tree followed its branch.
    expect(readFileSync(join(p.repo, "calc.py"), "utf8")).toBe("a-m\nb\nc\n");
    expect(readFileSync(join(p.repo, "n.txt"), "utf8")).toBe("n\n");
  });

  it("squashes a task's attempts into one commit on the base branch", () => {
    expect(gitIn(p.repo, "log", "--format=%s", "loopgate/s", "-2").split("\n")).toEqual([
      "loopgate: s attempt 2",
      "loopgate: s attempt 1",
    ]);
    expect(gitIn(p.repo, "log", "-1", "--format=%s%n%P", "main").split("\n")).toHaveLength(2);
    expect(gitIn(p.repo, "log", "-1", "--format=%s", "main")).toBe(
      "loopgate: s (its attempts squashed)",
    );
    expect(gitIn(p.repo, "show", "main:s.txt")).toBe("s1\ns2");
  });

  it("keeps a conflicting branch and says why; the task still proceeded", () => {
    expect(history).toContain(
      "on_proceed merge: the branch loopgate/c is kept, not merged: it conflicts with main in calc.py",
    );
    expect(gitIn(p.repo, "show", "main:calc.py")).toBe("a-m\nb\nc");
    expect(gitIn(p.repo, "show", "loopgate/c:calc.py")).toBe("a-c\nb\nc");
  });

  it("on_abort remove: the aborted task's worktree goes, its branch stays", () => {
    expect(existsSync(join(p.repo, ".loopgate", "worktrees", "x"))).toBe(false);
    expect(existsSync(join(p.repo, ".loopgate", "worktrees", "m"))).toBe(true);
    expect(gitIn(p.repo, "show", "loopgate/x:x.txt")).toBe("x");
    expect(history).toContain(
      "the branch loopgate/x is kept (git branch -D loopgate/x deletes it)",
    );
    expect(gitIn(p.repo, "status", "--porcelain", "--", "calc.py", "n.txt", "s.txt")).toBe("");
  });

  it("refuses a bad on_proceed before anything runs (exit 2, one line naming field and value)", () => {
    const bad = join(p.repo, "bad.yaml");
    writeFileSync(
      bad,
      stringify({
        workspace: { git: "worktree", on_proceed: "rebase" },
        steps: { generate: { command: ["true"] } },
        tasks: [{ id: "b", prompt: "p" }],
      }),
    );
    const refused = cli(["run", bad, "--db", join(p.repo, "other.db")]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe(
      'error: workspace.on_proceed: expected keep, merge or squash, got "rebase" (a string)',
    );
  });
});
