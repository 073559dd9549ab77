import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { gitIn } from "./test-support/git-in.js";
import { oneCommitRepository } from "./test-support/one-commit-repository.js";

// Git workspaces through the built CLI, on real repositories made here: each task in its own
// worktree and branch, every attempt a commit, its diff journaled and shown.

beforeAll(requireBuild);

/** A repository with one commit holding calc.py, and the scripts the steps run. */
function repository() {
  const { dir, repo } = oneCommitRepository("loopgate-ws-", "def add(a, b):\n    return a - b\n");
  // The scripted agent: appends a line naming its task and attempt to calc.py, up to attempt
  // `LAST_EDIT` (all by default), and notes every other task's line it finds there; with
  // `WRITE_SECRET`, its first attempt also writes a token to config.txt.
  const agent = join(dir, "agent.sh");
  writeFileSync(
    agent,
    `#!/bin/sh
grep -v "^def\\|^    \\|# $LOOPGATE_TASK_ID " calc.py >> "${dir}/seen-others" || true
if [ "$LOOPGATE_ITERATION" -le "\${LAST_EDIT:-99}" ]; then echo "# $LOOPGATE_TASK_ID $LOOPGATE_ITERATION" >> calc.py; fi
if [ "$LOOPGATE_ITERATION" = 1 ] && [ -n "\${WRITE_SECRET:-}" ]; then echo "token = ${SECRET}" > config.txt; fi
sleep 0.3
`,
    { mode: 0o755 },
  );
  const write = (name: string, document: unknown) => {
    const file = join(repo, name);
    writeFileSync(file, stringify(document));
    return file;
  };
  return { dir, repo, agent, write, db: join(repo, ".loopgate", "journal.db") };
}

/** A token the redaction knows; only the agent's script (outside the repository) holds it. */
const SECRET = "ghp_1234567890abcdefghijABCDEFGHIJ123456";

/** Whether any of loopgate's own files (journal, step files; not the worktrees) holds `text`. */
function ownFilesHold(repo: string, text: string): boolean {
  const own = join(repo, ".loopgate");
  return readdirSync(own, { recursive: true, encoding: "utf8" })
    .filter((name) => !name.startsWith("worktrees"))
    .map((name) => join(own, name))
    .some((path) => statSync(path).isFile() && readFileSync(path).includes(text));
}

/** The subjects of a branch's commits, newest first. */
const subjects = (repo: string, branch: string) =>
  gitIn(repo, "log", "--format=%s", branch).split("\n");

describe("git workspaces (built CLI)", () => {
  it("gives each of three tasks editing one file its own worktree and branch at --concurrency 3: none sees another's edits, every attempt is a commit, the main working tree (dirty) is untouched", () => {
    const project = repository();
    const taskFile = project.write("tasks.yaml", {
      workspace: { git: "worktree" },
      iteration_control: { max_iterations: 3 },
      steps: {
        generate: { command: [project.agent] },
        // Passes once the task's own three lines are there, and never with another's.
        test: {
          command:
            'test "$(grep -c "^# $LOOPGATE_TASK_ID " calc.py)" = 3 && test "$(grep -c "^# " calc.py)" = 3',
        },
      },
      tasks: [
        { id: "a", prompt: "fix add" },
        { id: "b", prompt: "fix add too" },
        { id: "c", prompt: "fix add as well" },
      ],
    });
    // An edit of the user's own, not committed: a worktree starts from the base commit, and
    // the edit stays where it is.
    const dirty = "def add(a, b):\n    return a + b  # my own fix\n";
    writeFileSync(join(project.repo, "calc.py"), dirty);
    const run = cli(["run", taskFile, "--db", project.db, "--concurrency", "3", "--quiet"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(existsSync(join(project.dir, "seen-others"))).toBe(true);
    expect(readFileSync(join(project.dir, "seen-others"), "utf8")).toBe("");
    for (const task of ["a", "b", "c"]) {
      const branch = `loopgate/${task}`;
      expect(subjects(project.repo, branch)).toEqual([
        `loopgate: ${task} attempt 3`,
        `loopgate: ${task} attempt 2`,
        `loopgate: ${task} attempt 1`,
        "init",
      ]);
      expect(gitIn(project.repo, "log", "-1", "--format=%an <%ae>", branch)).toBe(
        "loopgate <loopgate@localhost>",
      );
      expect(gitIn(project.repo, "show", `${branch}:calc.py`)).toBe(
        `def add(a, b):\n    return a - b\n# ${task} 1\n# ${task} 2\n# ${task} 3`,
      );
      const worktree = join(project.repo, ".loopgate", "worktrees", task);
      expect(gitIn(worktree, "status", "--porcelain")).toBe("");
    }
    // The repository's own working tree and branch are untouched.
    expect(readFileSync(join(project.repo, "calc.py"), "utf8")).toBe(dirty);
    expect(subjects(project.repo, "main")).toEqual(["init"]);

    const diff = cli(["diff", "a", "2", "--db", project.db]);
    expect(diff.status).toBe(0);
    expect(diff.stdout).toContain("+# a 1\n+# a 2\n");
    expect(diff.stdout).not.toContain("# a 3");
    const step = cli(["diff", "a", "3", "--against", "2", "--db", project.db]);
    expect(step.stdout).toContain("+# a 3\n");
    expect(step.stdout).not.toContain("+# a 2");
    const span = cli(["diff", "b", "3", "--against", "1", "--db", project.db]);
    expect(span.stdout).toContain("+# b 2\n+# b 3\n");
    expect(span.stdout).not.toContain("+# b 1");

    const history = cli(["history", "a", "--db", project.db]);
    const head = gitIn(project.repo, "rev-parse", "loopgate/a");
    expect(history.stdout).toContain(
      `commit ${head.slice(0, 12)} on loopgate/a (+1 −0 since the previous attempt)`,
    );
  });

  it("commits nothing for an attempt that changed nothing, and NO_PROGRESS fires on it with the real diff in the escalation", () => {
    const project = repository();
    const taskFile = project.write("tasks.yaml", {
      workspace: { git: "worktree", author: "Agent Smith <smith@example.com>" },
      iteration_control: { max_iterations: 5 },
      stop_conditions: { no_progress: { window: 2 } },
      steps: {
        generate: { command: [project.agent], env: { LAST_EDIT: "1", WRITE_SECRET: "1" } },
        // Each review asks for something else: the outcomes differ, only the code stands still.
        review: {
          command: `if [ "$LOOPGATE_ITERATION" = 1 ]; then w=naming; else w=docstrings; fi; echo "{\\"status\\": \\"reject\\", \\"feedback\\": \\"improve the $w\\"}"`,
        },
      },
      tasks: [{ id: "t", prompt: "fix add" }],
    });
    const run = cli(["run", taskFile, "--db", project.db, "--json", "--quiet"]);
    expect(run.status).toBe(3);
    const summary = JSON.parse(run.stdout) as {
      awaiting: { iteration: number; decision: { reason: string; context: { diff?: string } } };
    };
    expect(summary.awaiting.iteration).toBe(2);
    expect(summary.awaiting.decision.reason).toBe("NO_PROGRESS");
    expect(summary.awaiting.decision.context.diff).toContain("+# t 1");
    // The token the attempt committed is in git, and redacted in the escalation and the journal.
    expect(summary.awaiting.decision.context.diff).toContain("+token = ");
    expect(run.stdout).not.toContain(SECRET);
    expect(gitIn(project.repo, "show", "loopgate/t:config.txt")).toBe(`token = ${SECRET}`);
    expect(ownFilesHold(project.repo, "+token = ")).toBe(true);
    expect(ownFilesHold(project.repo, SECRET)).toBe(false);
    expect(subjects(project.repo, "loopgate/t")).toEqual(["loopgate: t attempt 1", "init"]);
    expect(gitIn(project.repo, "log", "-1", "--format=%an <%ae>", "loopgate/t")).toBe(
      "Agent Smith <smith@example.com>",
    );

    const explain = cli(["explain", "t", "--db", project.db]);
    expect(explain.stdout).toContain("the last 2 passes have the same diff");
    const nothing = cli(["diff", "t", "2", "--against", "1", "--db", project.db]);
    expect(nothing.status).toBe(0);
    expect(nothing.stdout).toBe("");
    const shown = cli(["diff", "t", "--db", project.db]).stdout;
    expect(shown).toContain("+# t 1\n");
    expect(shown).toContain("+token = ");
    expect(shown).not.toContain(SECRET);
    expect(cli(["history", "t", "--db", project.db]).stdout).toContain("no change: commit");
  });

  it("goes on in the same worktree after an answer and after a kill right after the worktree was made", () => {
    const project = repository();
    const taskFile = project.write("tasks.yaml", {
      workspace: { git: "worktree" },
      iteration_control: { max_iterations: 2 },
      steps: {
        generate: { command: [project.agent] },
        test: { command: 'grep -q "# t 3" calc.py' },
      },
      tasks: [{ id: "t", prompt: "fix add" }],
    });
    // Killed at its first journal append: the worktree exists, the first generate step ran or
    // was cut off, and its result was never journaled.
    const killed = cli(["run", taskFile, "--db", project.db, "--quiet"], {
      LOOPGATE_CRASH_AFTER_APPENDS: "1",
    });
    expect(killed.signal).toBe("SIGKILL");
    const resumed = cli(["resume", "--db", project.db, "--quiet"]);
    expect(resumed.status).toBe(3);
    expect(cli(["answer", "t", "--text", "one more", "--db", project.db]).status).toBe(0);
    expect(cli(["resume", "--db", project.db, "--quiet"]).status).toBe(0);
    expect(gitIn(project.repo, "worktree", "list").split("\n")).toHaveLength(2);
    // The cut-off first step ran again in the same worktree: its earlier line, if it wrote one,
    // is committed with the attempt that ran again, and no work is lost.
    const log = subjects(project.repo, "loopgate/t");
    expect(log.slice(0, 2)).toEqual(["loopgate: t attempt 3", "loopgate: t attempt 2"]);
    expect(log.at(-1)).toBe("init");
    const third = cli(["diff", "t", "3", "--against", "2", "--db", project.db]).stdout;
    const added = third.split("\n").filter((line) => /^\+(?!\+\+)/.test(line));
    expect(added).toEqual(["+# t 3"]);
  });

  it("without a workspace, prints the diff a step reported, and says when none is known", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-reported-"));
    const taskFile = join(dir, "tasks.yaml");
    writeFileSync(
      taskFile,
      stringify({
        steps: {
          generate: {
            command: `if [ "$LOOPGATE_TASK_ID" = told ]; then echo '{"diff": "+reported line"}' >> "$LOOPGATE_REPORT_FILE"; fi`,
          },
        },
        tasks: [
          { id: "told", prompt: "p" },
          { id: "silent", prompt: "p" },
        ],
      }),
    );
    const db = join(dir, "journal.db");
    expect(cli(["run", taskFile, "--db", db, "--quiet"]).status).toBe(0);
    expect(cli(["diff", "told", "--db", db]).stdout).toBe("+reported line");
    const against = cli(["diff", "told", "1", "--against", "1", "--db", db]);
    expect(against.status).toBe(2);
    expect(against.stderr).toBe(
      "error: diff: --against 1 needs both attempts committed in a git workspace, and told attempt 1 has no commit\n",
    );
    const silent = cli(["diff", "silent", "--db", db]);
    expect(silent.status).toBe(2);
    expect(silent.stderr).toBe(
      "error: diff: no diff is known for silent attempt 1: give the task a git workspace (docs/workspaces.md)\n",
    );
    expect(cli(["diff", "nobody", "--db", db]).status).toBe(2);
  });

  it("refuses a workspace outside a git repository with exit 2 and one line, before anything runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-nogit-"));
    const taskFile = join(dir, "tasks.yaml");
    writeFileSync(
      taskFile,
      stringify({
        workspace: { git: "worktree" },
        steps: { generate: { command: ["true"] } },
        tasks: [{ id: "t", prompt: "p" }],
      }),
    );
    const db = join(dir, ".loopgate", "journal.db");
    const run = cli(["run", taskFile, "--db", db], { GIT_CEILING_DIRECTORIES: tmpdir() });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `error: workspace: ${dir} is not in a git repository: run git init and commit there, or drop workspace from the task file\n`,
    );
    expect(existsSync(db)).toBe(false);
  });

  it("runs in place on the repository's own branch, and refuses a dirty working tree there", () => {
    const project = repository();
    const taskFile = project.write("tasks.yaml", {
      workspace: { git: "in-place" },
      iteration_control: { max_iterations: 2 },
      steps: {
        generate: { command: [project.agent] },
        test: { command: 'grep -q "# t 2" calc.py' },
      },
      tasks: [{ id: "t", prompt: "p" }],
    });
    // The task file itself is a change: the run would commit it into the first attempt.
    const dirty = cli(["run", taskFile, "--db", project.db]);
    expect(dirty.status).toBe(2);
    expect(dirty.stderr).toBe(
      `error: workspace git: in-place: ${project.repo} has uncommitted changes (tasks.yaml): commit or stash them first, or use git: worktree\n`,
    );
    expect(existsSync(project.db)).toBe(false);
    gitIn(project.repo, "add", "tasks.yaml");
    gitIn(project.repo, "commit", "--quiet", "-m", "tasks");
    const run = cli(["run", taskFile, "--db", project.db, "--quiet"]);
    expect(run.status).toBe(0);
    expect(subjects(project.repo, "main")).toEqual([
      "loopgate: t attempt 2",
      "loopgate: t attempt 1",
      "tasks",
      "init",
    ]);
    // The journal lies inside the working tree and is never committed.
    expect(gitIn(project.repo, "ls-files")).toBe("calc.py\ntasks.yaml");
  });
});
