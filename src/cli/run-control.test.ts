import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild, startCli } from "../runner/test-support/built-cli.js";
import { fixtureProject } from "../runner/test-support/fixture-project.js";

// Issue 10 item 7 through the built CLI: run management — a second run of a paused task file,
// a resume with nothing to do, and an answers file checked like any other input.

beforeAll(requireBuild);

type Result = ReturnType<typeof cli>;

/** Exit 2 with one `error:` line matching `line`, nothing on stdout, no internal error. */
function expectBadInput(result: Result, line: RegExp) {
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: "" });
  expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
  expect(result.stderr).toMatch(line);
}

/** The run ids `status --all --json` lists. */
function runIds(db: string, cwd: string): number[] {
  const status = cli(["status", "--all", "--json", "--db", db], {}, cwd);
  return (JSON.parse(status.stdout) as { runs: { run: number }[] }).runs.map((run) => run.run);
}

describe("run management (built CLI)", () => {
  it("refuses a second run of a paused task file, saying how to go on; --new forces one", () => {
    const fixture = fixtureProject({ passFrom: 9 });
    const args = ["run", fixture.taskFile, "--quiet", "--db", fixture.db];
    expect(cli(args, {}, fixture.dir).status).toBe(3);
    const again = cli(args, {}, fixture.dir);
    expectBadInput(
      again,
      /^error: run: run 1 of .*loopgate\.yaml is awaiting an answer \(task-1\): answer task-1 \(loopgate answer task-1 .* --db .*\), then loopgate resume --run 1 --db .*; or end it with loopgate cancel 1 --db .*; --new starts another run anyway\n$/,
    );
    expect(runIds(fixture.db, fixture.dir)).toEqual([1]);
    expect(cli([...args, "--new"], {}, fixture.dir).status).toBe(3);
    expect(runIds(fixture.db, fixture.dir)).toEqual([1, 2]);
  });

  it("starts a new run once the earlier one is over", () => {
    const fixture = fixtureProject({ passFrom: 1 });
    const args = ["run", fixture.taskFile, "--quiet", "--db", fixture.db];
    expect(cli(args, {}, fixture.dir).status).toBe(0);
    expect(cli(args, {}, fixture.dir).status).toBe(0);
    expect(runIds(fixture.db, fixture.dir)).toEqual([1, 2]);
  });

  it("resume with nothing to do says so and exits 0", () => {
    const fixture = fixtureProject({ passFrom: 1 });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(0);
    const resume = cli(["resume"], {}, fixture.dir);
    expect(resume.status).toBe(0);
    expect(resume.stdout).toBe("run 1 is over: nothing to resume (see loopgate status)\n");
    expect(fixture.trace().filter((line) => line.endsWith("start"))).toHaveLength(3);
  });

  it("resume without a journal creates none", () => {
    const fixture = fixtureProject();
    const resume = cli(["resume"], {}, fixture.dir);
    expect(resume.status).toBe(2);
    expect(resume.stderr).toMatch(/^error: no journal found: /);
    expect(existsSync(join(fixture.dir, ".loopgate"))).toBe(false);
  });

  it("an answers file naming a task the run does not have is refused before anything runs", () => {
    const fixture = fixtureProject({ passFrom: 9, tasks: ["task-003"] });
    const answers = fixture.write("answers.yaml", "answers:\n  task-03: {option: 1}\n");
    const run = cli(["run", fixture.taskFile, "--answers", answers], {}, fixture.dir);
    expectBadInput(
      run,
      /^error: answers\.task-03: no task "task-03" in the run \(did you mean "task-003"\?\); its tasks are task-003\n$/,
    );
    expect(existsSync(fixture.db)).toBe(false);
    expect(fixture.trace()).toEqual([]);
    // And on resume, against the run's own tasks.
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    const resume = cli(["resume", "--answers", answers], {}, fixture.dir);
    expectBadInput(resume, /^error: answers\.task-03: no task "task-03" in the run/);
  });

  it("an answers-file option the question does not offer is one line, exit 2, journal intact", () => {
    const fixture = fixtureProject({ passFrom: 9 });
    const answers = fixture.write("answers.yaml", "answers:\n  task-1: {option: 7}\n");
    const run = cli(["run", fixture.taskFile, "--quiet", "--answers", answers], {}, fixture.dir);
    expectBadInput(
      run,
      /^error: answers\.task-1: option 7 is not one of the question's options \(1\. .*; 2\. Abort this task\)\n$/,
    );
    // The pause is kept: the task still awaits its answer.
    const status = cli(["status"], {}, fixture.dir);
    expect(status.stdout).toContain("task-1 awaits an answer after attempt 3");
  });
});

describe("loopgate cancel (built CLI)", () => {
  it("ends a paused run with a journaled reason: status shows it cancelled, resume has nothing to do", () => {
    const fixture = fixtureProject({ passFrom: 9, tasks: ["a", "b"] });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    const cancel = cli(
      ["cancel", "1", "--reason", "wrong approach", "--by", "ana"],
      {},
      fixture.dir,
    );
    expect(cancel.stderr).toBe("");
    expect(cancel.status).toBe(0);
    expect(cancel.stdout).toBe(
      "cancelled in run 1: a, b — wrong approach\nrun 1 is now cancelled (loopgate status)\n",
    );
    const status = cli(["status"], {}, fixture.dir);
    expect(status.stdout).toMatch(/^1 .* cancelled +a:cancelled b:cancelled /m);
    expect(status.stdout).not.toContain("awaits an answer");
    expect(cli(["explain", "a"], {}, fixture.dir).stdout).toMatch(
      /\nThen:\n {2}cancelled by ana — wrong approach\n$/,
    );
    const history = cli(["history", "a"], {}, fixture.dir);
    expect(history.stdout).toMatch(/ a #3\/3 cancelled \(by ana\) — wrong approach\n/);
    const resume = cli(["resume"], {}, fixture.dir);
    expect(resume.stdout).toBe("run 1 is over: nothing to resume (see loopgate status)\n");
    // A new run of the task file is no longer refused.
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    const again = cli(["cancel", "1"], {}, fixture.dir);
    expectBadInput(again, /^error: cancel: run 1 is over already: nothing to cancel\n$/);
  });

  it("cancels one task by its id; the run goes on with the others", () => {
    const fixture = fixtureProject({ passFrom: 9, tasks: ["a", "quick"] });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    const cancel = cli(["cancel", "a"], {}, fixture.dir);
    expect(cancel.stdout).toMatch(/^cancelled in run 1: a\nrun 1 is now unfinished/);
    const resume = cli(["resume", "--quiet", "--json"], {}, fixture.dir);
    expect(resume.status).toBe(0);
    const outcomes = (
      JSON.parse(resume.stdout) as { tasks: { task_id: string; outcome: string }[] }
    ).tasks.map((task) => `${task.task_id}:${task.outcome}`);
    expect(outcomes).toEqual(["a:cancelled", "quick:proceeded"]);
    expectBadInput(
      cli(["cancel", "nope"], {}, fixture.dir),
      /^error: cancel: no run has task "nope" still going/,
    );
  });

  it("refuses a run another runner holds (exit 4), and then cancels it once that runner is gone", async () => {
    const fixture = fixtureProject({ passFrom: 9, generateDelay: 30 });
    const runner = startCli(["run", fixture.taskFile, "--quiet"], fixture.dir);
    // Wait for the first step to be journaled as started.
    for (let i = 0; i < 200 && !fixture.trace().some((line) => line.endsWith("start")); i++) {
      await sleep(50);
    }
    const busy = cli(["cancel"], {}, fixture.dir);
    expect(busy.status).toBe(4);
    expect(busy.stderr).toMatch(
      /^error: cancel: run 1 is being run by pid \d+ on .*; stop it first/,
    );
    runner.kill("SIGKILL");
    await new Promise((done) => runner.once("exit", done));
    const cancel = cli(["cancel", "--reason", "runner died"], {}, fixture.dir);
    expect(cancel.status).toBe(0);
    expect(cancel.stdout).toContain("cancelled in run 1: task-1 — runner died");
    const status = cli(["status", "--json"], {}, fixture.dir);
    expect((JSON.parse(status.stdout) as { runs: { status: string }[] }).runs[0]?.status).toBe(
      "cancelled",
    );
  });
});

describe("loopgate logs (built CLI)", () => {
  it("prints a step's captured output, for an attempt and a step or the whole latest attempt", () => {
    const fixture = fixtureProject({ passFrom: 2 });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(0);
    const test1 = cli(["logs", "task-1", "1", "test"], {}, fixture.dir);
    expect(test1.status).toBe(0);
    expect(test1.stdout).toMatch(
      /^== task-1 · run 1 · attempt 1 · test \(fail, exit code 1, \d+\.\d s\) ==\nFAIL src\/login\.test\.ts\nExpected: token to contain userId\nReceived: undefined\n$/,
    );
    const latest = cli(["logs", "task-1"], {}, fixture.dir);
    expect(latest.stdout.match(/^== .*$/gm)?.map((line) => line.replace(/ \(.*/, ""))).toEqual([
      "== task-1 · run 1 · attempt 2 · generate",
      "== task-1 · run 1 · attempt 2 · test",
      "== task-1 · run 1 · attempt 2 · review",
    ]);
    expect(latest.stdout).toContain("generating task-1 #2\n");
    expectBadInput(
      cli(["logs", "task-1", "7"], {}, fixture.dir),
      /^error: logs: task "task-1" has no finished step in attempt 7 of run 1\n$/,
    );
    expectBadInput(
      cli(["logs", "task-1", "1", "lint"], {}, fixture.dir),
      /^error: logs: STEP expects one of generate, test, review, got "lint"\n$/,
    );
    expectBadInput(cli(["logs", "nope"], {}, fixture.dir), /^error: no task "nope" in /);
  });
});

describe("control at answer time (built CLI)", () => {
  /** A task whose every attempt costs 0.25 and fails, capped at a budget of 0.5. */
  function budgetProject() {
    const fixture = fixtureProject();
    fixture.write(
      "loopgate.yaml",
      stringify({
        iteration_control: { max_iterations: 10 },
        stop_conditions: { budget_cap: 0.5 },
        steps: {
          generate: {
            command: `echo "$LOOPGATE_ITERATION" >> '${fixture.dir}/attempts.log'; echo '{"spend": 0.25}' >> "$LOOPGATE_REPORT_FILE"`,
          },
          test: { command: "echo 'FAIL: still broken'; exit 1" },
        },
        tasks: [{ id: "t", prompt: "p" }],
      }),
    );
    const attempts = () =>
      readFileSync(join(fixture.dir, "attempts.log"), "utf8").trim().split("\n").length;
    return { fixture, attempts };
  }

  it("the raise-the-budget option grants what the attempts it buys are expected to cost", () => {
    const { fixture, attempts } = budgetProject();
    const run = cli(["run", fixture.taskFile], {}, fixture.dir);
    expect(run.status).toBe(3);
    expect(attempts()).toBe(2);
    // Mean attempt cost 0.25 × the 2 attempts on_answer grants by default.
    expect(run.stderr).toContain(
      "1. Continue with guidance (raise the budget) [adds 0.5 to the budget for 2 more attempts]",
    );
    const answer = cli(["answer", "t", "--option", "1"], {}, fixture.dir);
    expect(answer.stdout).toMatch(/: option 1 — .*; grants 2 more attempts, 0\.5 more budget\n/);
    expect(cli(["resume", "--quiet"], {}, fixture.dir).status).toBe(3);
    // Both granted attempts ran: the budget did not stop the first of them.
    expect(attempts()).toBe(4);
    const explain = cli(["explain", "t"], {}, fixture.dir);
    expect(explain.stdout).toContain("spend 1 of budget_cap 1");
    expect(cli(["explain", "t", "2"], {}, fixture.dir).stdout).toMatch(
      /\nThen:\n {2}answered option 1 by .*: granted 2 more attempts, 0\.5 more budget \(on_answer default\)\n$/,
    );
  });

  it("answer --extra-budget and --extra-iterations grant exactly that, journaled and shown", () => {
    const { fixture, attempts } = budgetProject();
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    const answer = cli(
      ["answer", "t", "--text", "try harder", "--extra-budget", "0.75", "--extra-iterations", "3"],
      {},
      fixture.dir,
    );
    expect(answer.stdout).toContain("grants 3 more attempts, 0.75 more budget");
    expect(cli(["resume", "--quiet"], {}, fixture.dir).status).toBe(3);
    expect(attempts()).toBe(5);
    const history = cli(["history", "t"], {}, fixture.dir);
    expect(history.stdout).toMatch(
      /answered: guidance: try harder \[\+3 attempts, \+0\.75 budget\]/,
    );
    const exported = cli(["export", "--jsonl"], {}, fixture.dir).stdout;
    expect(exported).toContain('"extra_budget":0.75');
    expect(exported).toContain('"extra_iterations":3');
    const explain = cli(["explain", "t"], {}, fixture.dir);
    expect(explain.stdout).toContain("spend 1.25 of budget_cap 1.25");
    const paused = cli(["explain", "t", "2"], {}, fixture.dir);
    expect(paused.stdout).toMatch(
      /\nThen:\n {2}answered text by .*: granted 3 more attempts, 0\.75 more budget \(as the answer asked\)\n$/,
    );
  });

  it("refuses extra room that is not a number, or with an answer that does not continue", () => {
    const { fixture } = budgetProject();
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    expectBadInput(
      cli(["answer", "t", "--option", "1", "--extra-budget", "lots"], {}, fixture.dir),
      /^error: answer: --extra-budget expects an amount \(0 or more, like 2\.5\), got "lots"\n$/,
    );
    expectBadInput(
      cli(["answer", "t", "--option", "1", "--extra-iterations", "0"], {}, fixture.dir),
      /--extra-iterations expects a whole number of attempts \(1 or more\), got "0"/,
    );
    expectBadInput(
      cli(["answer", "t", "--abort", "--extra-budget", "1"], {}, fixture.dir),
      /go with --option or --text/,
    );
  });
});

describe("resume --task-file (built CLI)", () => {
  it("carries a run stuck on a bad step on with the fixed steps; other changes are refused", () => {
    const fixture = fixtureProject();
    const document = (report: string, maxIterations = 3) =>
      stringify({
        iteration_control: { max_iterations: maxIterations },
        steps: {
          generate: { command: `echo '${report}' >> "$LOOPGATE_REPORT_FILE"` },
          test: { command: "true" },
        },
        tasks: [{ id: "t", prompt: "p" }],
      });
    fixture.write("loopgate.yaml", document('{"cost": 0.5}'));
    const run = cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir);
    expect(run.status).toBe(2);
    fixture.write("loopgate.yaml", document('{"spend": 0.5}'));
    // The run's own steps are journaled: a plain resume fails the same way.
    expect(cli(["resume", "--quiet"], {}, fixture.dir).status).toBe(2);
    const bigger = fixture.write("bigger.yaml", document('{"spend": 0.5}', 9));
    expectBadInput(
      cli(["resume", "--quiet", "--task-file", bigger], {}, fixture.dir),
      /^error: resume: .*bigger\.yaml changes more than the steps of run 1 .*--new\n$/,
    );
    const fixed = cli(["resume", "--json", "--task-file", fixture.taskFile], {}, fixture.dir);
    expect(fixed.stderr).toContain("run 1 now uses the steps of");
    expect(fixed.status).toBe(0);
    const summary = JSON.parse(fixed.stdout) as { tasks: { outcome: string; spend: number }[] };
    expect(summary.tasks).toMatchObject([{ outcome: "proceeded", spend: 0.5 }]);
    // Journaled: a later resume reads the fixed steps without being told.
    expect(cli(["resume"], {}, fixture.dir).stdout).toContain("nothing to resume");
  });
});
