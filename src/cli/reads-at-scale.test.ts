import { beforeAll, describe, expect, it } from "vitest";
import { Journal } from "../runner/journal.js";
import { cli, requireBuild } from "../runner/test-support/built-cli.js";
import { fixtureProject } from "../runner/test-support/fixture-project.js";
import { failingRun } from "../runner/test-support/journaled-run.js";

const MANY = Array.from({ length: 25 }, (_, index) => `t${index + 1}`);

/**
 * A journal of two runs, written through the journal as the runner writes it: run 1 of tasks a,
 * b and c, run 2 of 25 tasks; every task paused for an answer after its third attempt.
 */
function twoRuns(): string {
  const { db } = fixtureProject();
  const journal = Journal.open(db);
  for (const tasks of [["a", "b", "c"], MANY]) {
    const run = failingRun({ attempts: 3, outputBytes: 64, tasks });
    const id = journal.createRun("/p/loopgate.yaml", "/p", run.document, tasks.length);
    // Run with every task at once, each task's story is its own: write them one after another.
    const events = tasks.flatMap(
      (task) => failingRun({ attempts: 3, outputBytes: 64, tasks: [task] }).events,
    );
    for (const event of events) journal.append(id, event);
  }
  journal.close();
  return db;
}

interface StatusJson {
  runs: {
    run: number;
    tasks: { task_id: string; outcome: string }[];
    awaiting_tasks: { task_id: string; question: string }[];
  }[];
}

describe("reading commands at scale (built CLI)", () => {
  let db = "";
  beforeAll(() => {
    requireBuild();
    db = twoRuns();
  });

  it("status shows the latest run, summarised: counts, 20 questions told, the rest counted", () => {
    const status = cli(["status", "--db", db]);
    expect(status.stderr).toBe("");
    expect(status.status).toBe(0);
    const lines = status.stdout.split("\n");
    expect(lines.filter((line) => /^\d+ /.test(line))).toHaveLength(1);
    expect(status.stdout).toMatch(/^2 .* awaiting-answer +25 tasks: 25 awaiting-answer +\/p\//m);
    expect(status.stdout).toMatch(/^ {2}awaiting-answer +25 +MAX_ITERATIONS 25$/m);
    expect(status.stdout.match(/^run 2: t\d+ awaits an answer after attempt 3/gm)).toHaveLength(20);
    expect(status.stdout).toContain("run 2: … and 5 more tasks await an answer");
    expect(status.stdout).toMatch(/^ {2}After 3 attempts, the test still fails/m);
    expect(status.stdout).not.toMatch(/^run 1/m);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(200);
  });

  it("status --all tells every run and every task; --json every task of the latest run", () => {
    const all = cli(["status", "--all", "--db", db]);
    expect(all.status).toBe(0);
    expect(all.stdout).toMatch(/^1 .* a:awaiting-answer b:awaiting-answer c:awaiting-answer /m);
    expect(all.stdout.match(/^run 2: t\d+ awaits an answer/gm)).toHaveLength(25);
    expect(all.stdout.match(/^ {2}t\d+ +awaiting-answer +3 +MAX_ITERATIONS$/gm)).toHaveLength(25);
    const json = JSON.parse(cli(["status", "--json", "--db", db]).stdout) as StatusJson;
    expect(json.runs.map((run) => run.run)).toEqual([2]);
    expect(json.runs[0]?.tasks.map((task) => task.task_id)).toEqual(MANY);
    expect(json.runs[0]?.awaiting_tasks).toHaveLength(25);
    expect(json.runs[0]?.awaiting_tasks[0]?.question).toMatch(/^After 3 attempts/);
    const one = JSON.parse(cli(["status", "--run", "1", "--json", "--db", db]).stdout);
    expect((one as StatusJson).runs.map((run) => run.run)).toEqual([1]);
    expect(cli(["status", "--run", "3", "--db", db]).stderr).toMatch(/^error: no run 3 in /);
  });

  it("history, explain and answer find a task's run through the index, and read that task only", () => {
    const history = cli(["history", "b", "--db", db]);
    expect(history.status).toBe(0);
    expect(history.stdout).toMatch(/^run 1 /);
    expect(history.stdout).not.toMatch(/^run 2 /m);
    expect(history.stdout).toMatch(/ b #3\/3 escalate \(MAX_ITERATIONS\)/);
    expect(history.stdout).not.toMatch(/ [ac] #\d/);
    expect(cli(["explain", "t7", "--db", db]).stdout).toMatch(
      /^t7 attempt 3 \(run 2\): escalate — MAX_ITERATIONS/,
    );
    const answer = cli(["answer", "b", "--abort", "--db", db]);
    expect(answer.stderr).toBe("");
    expect(answer.stdout).toMatch(/^recorded for b \(run 1\): abort/);
    const after = cli(["status", "--run", "1", "--db", db]).stdout;
    expect(after).toMatch(/^1 .* a:awaiting-answer b:running c:awaiting-answer /m);
    expect(cli(["answer", "t25", "--text", "go on", "--db", db]).stdout).toMatch(
      /^recorded for t25 \(run 2\): text; grants 2 more attempts/,
    );
  });
});
