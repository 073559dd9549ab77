import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runFilesDir } from "../../runner/journal-location.js";
import { STEP_LAUNCHER_FLAG } from "../../runner/step-launcher.js";
import { cli, requireBuild, ROOT } from "../../runner/test-support/built-cli.js";
import { sessionFlags } from "./run.js";

// The README's demo, through the built CLI: the seed's whole story to `proceed`.

beforeAll(requireBuild);

const demo = join(ROOT, "examples", "jwt-login");
const taskFile = join(demo, "loopgate.yaml");

/** A fingerprint of the committed demo project, to prove the agent only touched its copy. */
function projectHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(demo, "project"));
  return hash.digest("hex");
}

const freshDb = () => join(mkdtempSync(join(tmpdir(), "loopgate-demo-")), "journal.db");

describe("loopgate run: the jwt-login demo", () => {
  it("runs the seed's story to proceed with the answer given up front", () => {
    const before = projectHash();
    const db = freshDb();
    const run = cli(["run", taskFile, "--answers", join(demo, "answers.yaml"), "--db", db]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^task-003\s+proceeded\s+4\s+0\.08\s+VALIDATION_PASSED$/m);
    const story = run.stderr
      .split("\n")
      .filter((line) => / (?:retry|escalate|proceed) \(/.test(line));
    expect(story.map((line) => line.replace(/ ·.*/, ""))).toEqual([
      "task-003 #1/3 retry (TEST_FAILED)",
      "task-003 #2/3 retry (TEST_FAILED)",
      "task-003 #3/3 escalate (MAX_ITERATIONS)",
      "task-003 #4/5 proceed (VALIDATION_PASSED)",
    ]);
    expect(run.stderr).toContain("token is undefined");
    expect(run.stderr).toContain("token missing userId");
    expect(run.stderr).toContain("task-003 #3/5 answered: option 2");
    expect(projectHash()).toBe(before);
    // The chosen option's guidance reaches the next generate step through the answer file.
    const answerText = readFileSync(
      join(runFilesDir(db, 1), "task-003", "4", "answer.txt"),
      "utf8",
    );
    expect(answerText).toContain("Answer: option 2 — Number (update implementation)");
    expect(answerText).toMatch(/^Guidance: Make userId a number \(123\)/m);
  });

  it("pauses with exit code 3 without a terminal, then answer and resume finish it", () => {
    const db = freshDb();
    const paused = cli(["run", taskFile, "--db", db]);
    expect(paused.status).toBe(3);
    expect(paused.stdout).toMatch(/^task-003\s+awaiting-answer\s+3\s/m);
    // Each option once, with its guidance.
    expect(paused.stderr).toContain("  1. String (update test)\n     Keep userId a string");
    expect(paused.stderr).toContain(
      "  2. Number (update implementation)\n     Make userId a number",
    );
    expect(paused.stderr).toContain("loopgate answer task-003 --option N");

    const status = cli(["status", "--db", db, "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({
      runs: [
        { run: 1, status: "awaiting-answer", awaiting: { task_id: "task-003", iteration: 3 } },
      ],
    });

    const wrong = cli(["answer", "task-003", "--option", "7", "--db", db]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe(
      "error: --option: no option 7; the options are: 1. String (update test); 2. Number (update implementation)\n",
    );
    const answered = cli(["answer", "task-003", "--option", "2", "--db", db]);
    expect(answered.status).toBe(0);
    expect(answered.stdout).toContain("option 2 — Number (update implementation)");
    expect(cli(["answer", "task-003", "--option", "2", "--db", db]).status).toBe(2);

    const resumed = cli(["resume", "--db", db, "--json", "--quiet"]);
    expect(resumed.status).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      status: "finished",
      tasks: [
        { task_id: "task-003", outcome: "proceeded", iterations: 4, reason: "VALIDATION_PASSED" },
      ],
      awaiting: null,
    });

    const history = cli(["history", "task-003", "--db", db]);
    expect(history.status).toBe(0);
    expect(history.stdout).toContain("escalate (MAX_ITERATIONS)");
    expect(history.stdout).toContain("answered: option 2");

    const explain = cli(["explain", "task-003", "3", "--db", db]);
    expect(explain.status).toBe(0);
    expect(explain.stdout).toMatch(/MAX_ITERATIONS\s+FIRED\s+iteration 3 reached max_iterations 3/);
    expect(explain.stdout).toContain("rule 3: the limit MAX_ITERATIONS fired → escalate");

    const exported = cli(["export", "--jsonl", "--db", db]).stdout.trim().split("\n");
    const events = exported.map((line) => JSON.parse(line) as { type: string; input?: unknown });
    expect(events.filter((event) => event.type === "decision-recorded")).toHaveLength(4);
    expect(events.find((event) => event.type === "decision-recorded")?.input).toMatchObject({
      iteration_check: { task_id: "task-003", current_iteration: 1 },
    });
  });

  it("refuses an invalid task file with one line naming the field, and exit code 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-invalid-"));
    const file = join(dir, "tasks.yaml");
    const bad =
      "steps: {generate: {command: [x]}}\ntasks: [{id: t, prompt: p}]\nstop_conditions: {budget_capp: 1}\n";
    writeFileSync(file, bad);
    const run = cli(["run", file, "--db", join(dir, "j.db")]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      'error: stop_conditions: unknown key "budget_capp" (did you mean "budget_cap"?)\n',
    );
  });
});

describe("sessionFlags", () => {
  it("starts the step launcher with no Node flag, so V8 accepts the CLI's code cache", () => {
    const { stepLauncher } = sessionFlags("run", {});
    expect(stepLauncher?.argv).toEqual([process.argv[1], STEP_LAUNCHER_FLAG]);
  });
});
