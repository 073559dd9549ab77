import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "./test-support/built-cli.js";

// Configuration errors through the built CLI: refused before anything runs when they can be
// seen up front, and a step error (STEP_ERROR) when a step cannot start or a review crashes
// mid-run — never an attempt, never retried, never feedback for the agent.

beforeAll(requireBuild);

/** A project with an executable `claude` on a PATH of its own and the given files. */
function project(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-step-error-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "claude"), "#!/bin/sh\necho agent\n");
  chmodSync(join(bin, "claude"), 0o755);
  const write = (name: string, text: string, mode = 0o755) => {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), mode);
  };
  for (const [name, text] of Object.entries(files)) write(name, text);
  const env = { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
  const db = join(dir, "journal.db");
  const taskFile = join(dir, "loopgate.yaml");
  const run = (...args: string[]) => cli([...args, "--db", db], env, dir);
  return { dir, db, taskFile, write, run, env };
}

/** The run's events as exported, one object each. */
function events(run: (...args: string[]) => { stdout: string }) {
  return run("export", "--jsonl")
    .stdout.trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const TASKS = "tasks: [{id: t1, prompt: p}]\n";

describe("preflight (built CLI)", () => {
  it("refuses a misspelled program before any step runs, suggesting the one on PATH", () => {
    const { run, db, dir } = project({
      "loopgate.yaml": `steps:\n  generate: [sh, -c, 'touch ran']\n  test: [claud, -p]\n${TASKS}`,
    });
    const refused = run("run", "loopgate.yaml");
    expect(refused.stderr).toBe(
      'error: steps.test.command[0]: program "claud" not found on PATH (did you mean "claude"?)\n',
    );
    expect(refused.status).toBe(2);
    // Nothing ran and nothing was journaled: there is no journal at all.
    expect(existsSync(join(dir, "ran"))).toBe(false);
    expect(existsSync(db)).toBe(false);
  });

  it("refuses a missing cwd and a script that is not executable, naming the field", () => {
    const { run, write, dir } = project({ "agent.sh": "#!/bin/sh\n" });
    write("loopgate.yaml", `steps:\n  generate: {command: [claude], cwd: app}\n${TASKS}`);
    const cwd = run("run", "loopgate.yaml");
    expect(cwd.status).toBe(2);
    expect(cwd.stderr).toBe(
      `error: steps.generate.cwd: directory "app" does not exist (${join(dir, "app")})\n`,
    );
    chmodSync(join(dir, "agent.sh"), 0o644);
    write("loopgate.yaml", `steps:\n  generate: ./agent.sh --go\n${TASKS}`);
    const script = run("run", "loopgate.yaml");
    expect(script.status).toBe(2);
    expect(script.stderr).toMatch(
      /^error: steps\.generate\.command: program "\.\/agent\.sh" is not executable .*chmod \+x it/,
    );
  });
});

describe("step errors (built CLI)", () => {
  it("pauses at once with STEP_ERROR when the review crashes, never as a pending review", () => {
    const { run } = project({
      "loopgate.yaml": `steps:\n  generate: [claude]\n  review: [sh, -c, 'echo "Traceback: reviw.py boom" >&2; exit 2']\n${TASKS}`,
    });
    const paused = run("run", "loopgate.yaml");
    expect(paused.status).toBe(3);
    expect(paused.stderr).toContain(
      "t1 is paused by a step error (run 1, attempt 1, STEP_ERROR): the review step exited with 2 without a verdict",
    );
    expect(paused.stderr).toContain("| Traceback: reviw.py boom");
    expect(paused.stderr).not.toMatch(/pending|REVIEW_PENDING|wait/);
    const types = events(run).map((event) => event.type);
    expect(types).toEqual(["step-started", "step-finished", "step-started", "step-errored"]);
    const status = JSON.parse(run("status", "--json").stdout);
    expect(status.runs[0]).toMatchObject({
      status: "step-error",
      step_errors: [{ task_id: "t1", reason: "STEP_ERROR" }],
      tasks: [{ outcome: "step-error", reason: "STEP_ERROR" }],
    });
  });

  it("pauses when the review program is gone mid-run, with no pending polls", () => {
    const { run } = project({
      "review.py": '#!/bin/sh\necho \'{"status": "approve"}\'\n',
      "loopgate.yaml": `review_wait: {max_polls: 10, interval_ms: 30000}\nsteps:\n  generate: [sh, -c, 'rm review.py']\n  review: [./review.py]\n${TASKS}`,
    });
    const started = Date.now();
    const paused = run("run", "loopgate.yaml");
    expect(paused.status).toBe(3);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(paused.stderr).toContain(
      'the review step could not start: command[0]: program "./review.py" does not exist',
    );
    expect(events(run).filter((event) => event.type === "decision-recorded")).toEqual([]);
  });

  it("never sends a missing test program to the agent; resume after fixing the task file runs the test again", () => {
    const { run, write, dir } = project({
      // The agent logs any feedback it is handed, and deletes the test script on its first run.
      "agent.sh": `#!/bin/sh\n[ -n "\${LOOPGATE_FEEDBACK_FILE:-}" ] && cat "$LOOPGATE_FEEDBACK_FILE" >> feedback.log\n[ -f first ] || { touch first; rm -f tests.sh; }\n`,
      "tests.sh": "#!/bin/sh\nexit 0\n",
      "tests2.sh": "#!/bin/sh\necho all good\n",
    });
    const taskFile = (maxIterations: number, test: string) =>
      write(
        "loopgate.yaml",
        `iteration_control: {max_iterations: ${maxIterations}}\nsteps:\n  generate: [./agent.sh]\n  test: [${test}]\n${TASKS}`,
      );
    taskFile(1, "./tests.sh");
    const paused = run("run", "loopgate.yaml");
    expect(paused.status).toBe(3);
    expect(paused.stderr).toContain("test: step error — paused (STEP_ERROR)");
    expect(paused.stderr).toContain("Nothing was retried or sent to the agent.");
    const explained = run("explain", "t1");
    expect(explained.stdout).toContain("t1 attempt 1 (run 1): paused — STEP_ERROR");
    expect(run("history").stdout).toContain("test: step error");
    // Resuming is refused up front, nothing journaled, while the file is unfixed, and when a
    // fix changes more than the steps (it is no longer this run's file).
    const before = events(run).length;
    const refusals = [
      'error: steps.test.command[0]: program "./tests.sh" does not exist',
      "run 1 is paused by a step error, and its tasks or settings changed since it started",
    ];
    for (const [index, refusal] of refusals.entries()) {
      if (index === 1) taskFile(2, "./tests2.sh");
      const refused = run("resume");
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(refusal);
      expect(events(run)).toHaveLength(before);
    }
    taskFile(1, "./tests2.sh");
    const resumed = run("resume");
    expect(resumed.stderr).toContain("steps read again from");
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/^t1\s+proceeded\s+1\s/m);
    const story = events(run);
    // The test program never started, so it has no step-started event.
    expect(story.map((event) => event.type)).toEqual([
      "step-started",
      "step-finished",
      "step-errored",
      "step-resumed",
      "step-started",
      "step-finished",
      "decision-recorded",
    ]);
    expect(JSON.stringify(story)).not.toMatch(/"action":"retry"|TEST_FAILED/);
    expect(existsSync(join(dir, "feedback.log"))).toBe(false);
    expect(readFileSync(join(dir, "first"), "utf8")).toBe("");
  });
});
