import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { gitIn } from "./test-support/git-in.js";
import { oneCommitRepository } from "./test-support/one-commit-repository.js";

// Restoring the best attempt through the built CLI, on a real repository: three tasks whose
// attempts get worse (1, 2, then 3 failing tests) pause at their cap; each is restored to
// attempt 1 another way — `restore`, `answer --restore` with guidance, and an option answered
// to a runner killed before its reset — and `resume` goes on from there; a fourth stops there.

beforeAll(requireBuild);

/** A repository, its task file and the scripts its steps run; one run shared by the tests below. */
function project() {
  const { dir, repo } = oneCommitRepository("loopgate-restore-", "v0\n");
  // Attempts 1-3 write v1-v3 and as many failing tests; attempt 4 fixes the code it finds.
  // Every attempt notes the code it started from.
  const agent = join(dir, "agent.sh");
  writeFileSync(
    agent,
    `#!/bin/sh
echo "$LOOPGATE_ITERATION $(cat calc.py)" >> "${dir}/seen-$LOOPGATE_TASK_ID"
if [ "$LOOPGATE_ITERATION" -le 3 ]; then echo "v$LOOPGATE_ITERATION" > calc.py; echo "$LOOPGATE_ITERATION" > failing
else echo 0 > failing; fi
`,
    { mode: 0o755 },
  );
  // TAP: one failing test per line of the count, so the standing reads the parsed report.
  const test = join(dir, "test.sh");
  writeFileSync(
    test,
    `#!/bin/sh
n=$(cat failing); echo "TAP version 13"; i=1
while [ $i -le $n ]; do echo "not ok $i - case $i"; i=$((i+1)); done
echo "1..$n"; [ "$n" = 0 ]
`,
    { mode: 0o755 },
  );
  const taskFile = join(repo, "tasks.yaml");
  writeFileSync(
    taskFile,
    stringify({
      workspace: { git: "worktree" },
      iteration_control: { max_iterations: 3 },
      steps: { generate: { command: [agent] }, test: { command: [test] } },
      tasks: ["r", "a", "k", "q"].map((id) => ({ id, prompt: "fix calc" })),
    }),
  );
  const db = join(repo, ".loopgate", "journal.db");
  const worktree = (task: string) => join(repo, ".loopgate", "worktrees", task);
  const seen = (task: string) => readFileSync(join(dir, `seen-${task}`), "utf8");
  return { repo, taskFile, db, worktree, seen };
}

describe("restore the best attempt (built CLI, real git)", () => {
  const p = project();
  let run: ReturnType<typeof cli>;
  beforeAll(() => {
    run = cli(["run", p.taskFile, "--db", p.db, "--concurrency", "4", "--quiet"]);
  });

  it("names the best attempt and offers to restore it, continuing or stopping", () => {
    expect(run.status).toBe(3);
    const status = JSON.parse(cli(["status", "--db", p.db, "--json"]).stdout) as {
      runs: { awaiting_tasks: { task_id: string; options: Record<string, unknown>[] }[] }[];
    };
    const options = status.runs[0]?.awaiting_tasks.find((task) => task.task_id === "r")?.options;
    const restoring = options?.filter((option) => option["restore"] === 1);
    expect(restoring?.map((option) => [option["label"], option["effect"]])).toEqual([
      ["Restore attempt 1 and continue", "continue"],
      ["Restore attempt 1 and stop", "abort"],
    ]);
    expect(String(restoring?.[0]?.["guidance"])).toContain(
      "The best attempt is attempt 1: 1 failing test, review approved (the latest is attempt 3: 3 failing tests",
    );
  });

  it("journals the answer before the reset: a runner killed between the two has reset nothing", () => {
    // k alone is answered (the option restoring attempt 1), so the answer is the first append.
    const answers = join(p.repo, "..", "answers.yaml");
    writeFileSync(answers, stringify({ answers: { k: { option: 3 } } }));
    const killed = cli(["resume", "--db", p.db, "--answers", answers, "--quiet"], {
      LOOPGATE_CRASH_AFTER_APPENDS: "1",
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(readFileSync(join(p.worktree("k"), "calc.py"), "utf8")).toBe("v3\n");
    expect(cli(["history", "k", "--db", p.db]).stdout).toContain(
      "answered: option 3, restoring attempt 1",
    );
  });

  it("restore TASK N resets the worktree to the attempt's commit and tags the later attempts", () => {
    const attempt1 = gitIn(p.repo, "rev-parse", "loopgate/r~2");
    const attempt3 = gitIn(p.repo, "rev-parse", "loopgate/r");
    const restored = cli(["restore", "r", "1", "--db", p.db]);
    expect(restored.stderr).toBe("");
    expect(restored.status).toBe(0);
    const tag = `loopgate/r/attempt-3-${attempt3.slice(0, 12)}`;
    expect(restored.stdout).toContain(
      `restored attempt 1 (commit ${attempt1.slice(0, 12)}); the later attempts are kept as tag ${tag}`,
    );
    expect(readFileSync(join(p.worktree("r"), "calc.py"), "utf8")).toBe("v1\n");
    expect(gitIn(p.repo, "rev-parse", "loopgate/r")).toBe(attempt1);
    expect(gitIn(p.repo, "rev-parse", tag)).toBe(attempt3);
  });

  it("answer --restore N --text restores at once, with the guidance for the next attempt", () => {
    const answered = cli(["answer", "a", "--restore", "1", "--text", "keep v1", "--db", p.db]);
    expect(answered.status).toBe(0);
    expect(answered.stdout).toContain("restored attempt 1");
    expect(readFileSync(join(p.worktree("a"), "calc.py"), "utf8")).toBe("v1\n");
  });

  it("refuses a restore of an attempt the task has no commit of (exit 2, one line)", () => {
    const refused = cli(["restore", "q", "9", "--db", p.db]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "error: --restore: q has no commit of attempt 9; its attempts with commits are 1, 2, 3",
    );
  });

  it("finishes on resume a restore whose answer was journaled and whose reset never ran, then goes on from the restored attempts", () => {
    expect(readFileSync(join(p.worktree("k"), "calc.py"), "utf8")).toBe("v3\n");
    // "Restore attempt 1 and stop": the task ends there, aborted, its branch at attempt 1.
    const stopped = cli(["answer", "q", "--option", "4", "--db", p.db]);
    expect(stopped.stdout).toContain("Restore attempt 1 and stop");
    expect(readFileSync(join(p.worktree("q"), "calc.py"), "utf8")).toBe("v1\n");

    const resumed = cli(["resume", "--db", p.db, "--json", "--quiet"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.status).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { tasks: { task_id: string; outcome: string }[] };
    expect(Object.fromEntries(summary.tasks.map((task) => [task.task_id, task.outcome]))).toEqual({
      r: "proceeded",
      a: "proceeded",
      k: "proceeded",
      q: "aborted",
    });
    // Each restored task's attempt 4 started from attempt 1's code.
    for (const task of ["r", "a", "k"]) expect(p.seen(task).split("\n")[3]).toBe("4 v1");
    expect(p.seen("q").split("\n")).toHaveLength(4);
    const history = cli(["history", "k", "--db", p.db]).stdout;
    expect(history).toMatch(/k #4\/5 restored attempt 1 \(commit [0-9a-f]{12}\); the later/);
    // Attempt 4 is committed on top of attempt 1; attempts 2 and 3 stay reachable by the tag.
    expect(gitIn(p.repo, "log", "--format=%s", "loopgate/k").split("\n")).toEqual([
      "loopgate: k attempt 4",
      "loopgate: k attempt 1",
      "init",
    ]);
    expect(gitIn(p.repo, "tag", "--list", "loopgate/k/*").split("\n")).toHaveLength(1);
  });
});
