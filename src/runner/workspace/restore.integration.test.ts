import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { gitIn } from "./test-support/git-in.js";
import { worseAttemptsProject } from "./test-support/worse-attempts-project.js";

// Restoring the best attempt through the built CLI, on a real repository: three tasks whose
// attempts get worse (1, then 2 failing tests) pause at their cap; two are restored to attempt
// 1 — by `answer --restore` with guidance, and by the option answered to a runner killed
// before its reset — and `resume` goes on from there; the third (`restore --stop`) stops there.

beforeAll(requireBuild);

describe("restore the best attempt (built CLI, real git)", () => {
  const p = worseAttemptsProject("loopgate-restore-", ["r", "k", "q"]);
  let run: ReturnType<typeof cli>;
  beforeAll(() => {
    run = cli(["run", p.taskFile, "--db", p.db, "--concurrency", "3", "--quiet"]);
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
      "The best attempt is attempt 1: 1 failing test (the latest is attempt 2: 2 failing tests)",
    );
    // history tells the offer with the question it came with.
    expect(cli(["history", "r", "--db", p.db]).stdout).toContain(
      "2. Abort this task\n      3. Restore attempt 1 and continue\n      4. Restore attempt 1 and stop\n",
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
    expect(readFileSync(join(p.worktree("k"), "calc.py"), "utf8")).toBe("v2\n");
    expect(cli(["history", "k", "--db", p.db]).stdout).toContain(
      "answered: option 3, restoring attempt 1",
    );
  });

  it("answer --restore N --text resets the worktree to the attempt's commit at once and tags the later attempts", () => {
    const attempt1 = gitIn(p.repo, "rev-parse", "loopgate/r~1");
    const attempt2 = gitIn(p.repo, "rev-parse", "loopgate/r");
    const restored = cli(["answer", "r", "--restore", "1", "--text", "keep v1", "--db", p.db]);
    expect(restored.stderr).toBe("");
    expect(restored.status).toBe(0);
    const tag = `loopgate/r/attempt-2-${attempt2.slice(0, 12)}`;
    expect(restored.stdout).toContain(
      `restored attempt 1 (commit ${attempt1.slice(0, 12)}); the later attempts are kept as tag ${tag}`,
    );
    expect(readFileSync(join(p.worktree("r"), "calc.py"), "utf8")).toBe("v1\n");
    expect(gitIn(p.repo, "rev-parse", "loopgate/r")).toBe(attempt1);
    expect(gitIn(p.repo, "rev-parse", tag)).toBe(attempt2);
  });

  it("refuses a restore of an attempt the task has no commit of (exit 2, one line)", () => {
    const refused = cli(["restore", "q", "9", "--db", p.db]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "error: --restore: q has no commit of attempt 9; its attempts with commits are 1, 2",
    );
  });

  it("finishes on resume a restore whose answer was journaled and whose reset never ran, then goes on from the restored attempts", () => {
    expect(readFileSync(join(p.worktree("k"), "calc.py"), "utf8")).toBe("v2\n");
    // Restore and stop: the task ends there, aborted, its branch at attempt 1.
    const stopped = cli(["restore", "q", "1", "--stop", "--db", p.db]);
    expect(stopped.stdout).toContain("recorded for q (run 1): abort\nrestored attempt 1");
    expect(readFileSync(join(p.worktree("q"), "calc.py"), "utf8")).toBe("v1\n");

    const resumed = cli(["resume", "--db", p.db, "--json", "--quiet"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.status).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { tasks: { task_id: string; outcome: string }[] };
    expect(Object.fromEntries(summary.tasks.map((task) => [task.task_id, task.outcome]))).toEqual({
      r: "proceeded",
      k: "proceeded",
      q: "aborted",
    });
    // Each restored task's attempt 3 started from attempt 1's code, with the human's guidance.
    for (const task of ["r", "k"]) expect(p.seen(task).split("\n")[2]).toBe("3 v1");
    expect(p.seen("q").split("\n")).toHaveLength(3);
    expect(p.answer("r")).toContain("keep v1");
    expect(p.answer("k")).toContain("Restore attempt 1 and continue");
    const history = cli(["history", "k", "--db", p.db]).stdout;
    expect(history).toMatch(/k #3\/4 restored attempt 1 \(commit [0-9a-f]{12}\); the later/);
    // Attempt 3 is committed on top of attempt 1; attempt 2 stays reachable by the tag.
    expect(gitIn(p.repo, "log", "--format=%s", "loopgate/k").split("\n")).toEqual([
      "loopgate: k attempt 3",
      "loopgate: k attempt 1",
      "init",
    ]);
    expect(gitIn(p.repo, "tag", "--list", "loopgate/k/*").split("\n")).toHaveLength(1);
  });
});
