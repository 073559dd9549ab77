import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { gitIn } from "./test-support/git-in.js";
import { worseAttemptsProject } from "./test-support/worse-attempts-project.js";

// `loopgate restore` and `answer --restore` SIGKILLed inside the restore, on a real repository
// through the built CLI's test-only LOOPGATE_CRASH_AT_RESTORE hook: a, once the later attempts
// are tagged and before the reset; b, with the human's own edit in its worktree, once reset and
// before the restore is journaled. `resume` finishes both restores and goes on from attempt 1;
// the later attempts and the human's edit stay reachable by the tags.

beforeAll(requireBuild);

describe("a restore killed part-way (built CLI, real git)", () => {
  const p = worseAttemptsProject("loopgate-restore-crash-", ["a", "b"]);
  const head = (ref: string) => gitIn(p.repo, "rev-parse", ref);
  const calc = (task: string) => readFileSync(join(p.worktree(task), "calc.py"), "utf8");
  let attempts: Record<string, { first: string; second: string }>;
  beforeAll(() => {
    expect(cli(["run", p.taskFile, "--db", p.db, "--concurrency", "2", "--quiet"]).status).toBe(3);
    attempts = Object.fromEntries(
      ["a", "b"].map((task) => [
        task,
        { first: head(`loopgate/${task}~1`), second: head(`loopgate/${task}`) },
      ]),
    );
  });
  afterAll(() => rmSync(p.dir, { recursive: true, force: true }));
  const tagOf = (task: string) => gitIn(p.repo, "tag", "--list", `loopgate/${task}/*`);

  it("killed once tagged: the later attempts are tagged, the worktree is not reset yet", () => {
    const killed = cli(["restore", "a", "1", "--db", p.db], {
      LOOPGATE_CRASH_AT_RESTORE: "tagged",
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(tagOf("a")).toBe(`loopgate/a/attempt-2-${attempts["a"]?.second.slice(0, 12)}`);
    expect(head(tagOf("a"))).toBe(attempts["a"]?.second);
    expect(calc("a")).toBe("v2\n");
    expect(head("loopgate/a")).toBe(attempts["a"]?.second);
    const history = cli(["history", "a", "--db", p.db]).stdout;
    expect(history).toContain("restoring attempt 1");
    expect(history).not.toContain("restored attempt 1");
    // Run again, the restore says what finishes it.
    const again = cli(["restore", "a", "1", "--db", p.db]);
    expect(again.status).toBe(2);
    expect(again.stderr).toBe(
      'error: TASK: no run has task "a" awaiting an answer (see loopgate status); its answer in run 1 restores attempt 1, and that restore was cut off: loopgate resume finishes it\n',
    );
  });

  it("killed once reset: the human's edit is committed and tagged first, the worktree is attempt 1's", () => {
    writeFileSync(join(p.worktree("b"), "notes.txt"), "my own notes\n");
    const killed = cli(["answer", "b", "--restore", "1", "--text", "keep v1", "--db", p.db], {
      LOOPGATE_CRASH_AT_RESTORE: "reset",
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(calc("b")).toBe("v1\n");
    expect(head("loopgate/b")).toBe(attempts["b"]?.first);
    const tag = tagOf("b");
    expect(gitIn(p.repo, "log", "--format=%s", "-2", tag).split("\n")).toEqual([
      "loopgate: b work kept before restoring attempt 1",
      "loopgate: b attempt 2",
    ]);
    expect(gitIn(p.repo, "show", `${tag}:notes.txt`)).toBe("my own notes");
    expect(cli(["history", "b", "--db", p.db]).stdout).not.toContain("restored attempt 1");
  });

  it("resume finishes both restores once, names the tags, and goes on from attempt 1 with the guidance", () => {
    const resumed = cli(["resume", "--db", p.db, "--json", "--quiet"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.status).toBe(0);
    for (const task of ["a", "b"]) {
      // Attempt 3 started from attempt 1's code, and is committed on top of it.
      expect(p.seen(task).split("\n")[2]).toBe("3 v1");
      expect(gitIn(p.repo, "log", "--format=%H %s", `loopgate/${task}`).split("\n")).toEqual([
        expect.stringMatching(new RegExp(`^[0-9a-f]{40} loopgate: ${task} attempt 3$`)),
        `${attempts[task]?.first} loopgate: ${task} attempt 1`,
        expect.stringMatching(/ init$/),
      ]);
      const history = cli(["history", task, "--db", p.db]).stdout;
      const restored = history.split("\n").filter((line) => line.includes("restored attempt 1"));
      expect(restored).toHaveLength(1);
      expect(restored[0]).toContain(`the later attempts are kept as tag ${tagOf(task)}`);
    }
    expect(p.answer("b")).toContain("keep v1");
    expect(p.answer("a")).toContain("Attempt 1's code is restored: go on from it.");
    // The human's edit is not in the restored line of work, and not lost: the tag has it.
    expect(gitIn(p.repo, "ls-tree", "--name-only", "loopgate/b")).not.toContain("notes.txt");
    expect(gitIn(p.repo, "show", `${tagOf("b")}:notes.txt`)).toBe("my own notes");
  });
});
