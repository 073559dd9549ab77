import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cli, ROOT, requireBuild, startCli } from "../test-support/built-cli.js";
import { fixtureProject, type Fixture } from "../test-support/fixture-project.js";
import { cleanUp, eventually, pidFrom } from "../test-support/processes.js";
import { describeOnBothStores } from "./test-support/both-stores.js";

// More of the runner's stories, told on both stores through the built CLI and compared once both
// have run (as in store-behaviour.test.ts): the seed's jwt-login story, the budget and
// no-progress stops with the answers that end or carry them on (`answer`, `resume --answers`),
// task files refused with nothing written, a runner killed in a step, then resumed, and the seed
// again with its answer given up front (`run --answers`).

const dir = mkdtempSync(join(tmpdir(), "loopgate-stories-"));
const seedTasks = join(ROOT, "examples", "jwt-login", "loopgate.yaml");

let seed: Fixture;
let budget: Fixture;
let noProgress: Fixture;
let refused: Fixture;
let crash: Fixture;
/** The hanging steps a killed runner left, killed at the end whatever happened. */
const sleepers: number[] = [];

/** A fixture's task file with `settings` merged in, its test failing the same way until `passFrom`. */
function withSettings(fixture: Fixture, settings: Record<string, unknown>): void {
  fixture.write(
    "loopgate.yaml",
    stringify({
      ...settings,
      steps: {
        generate: { command: `echo '{"spend": 0.25}' >> "$LOOPGATE_REPORT_FILE"; echo generated` },
        test: {
          command: 'if [ "$LOOPGATE_ITERATION" -ge 3 ]; then echo ok; else echo same; exit 1; fi',
        },
        review: { command: ["sh", "-c", `echo '{"status": "approve", "feedback": ""}'`] },
      },
      tasks: [{ id: "t", prompt: "do t" }],
    }),
  );
}

beforeAll(() => {
  requireBuild();
  seed = fixtureProject();
  budget = fixtureProject();
  withSettings(budget, {
    iteration_control: { max_iterations: 5 },
    stop_conditions: { budget_cap: 0.5 },
  });
  noProgress = fixtureProject();
  withSettings(noProgress, {
    iteration_control: { max_iterations: 5 },
    stop_conditions: { no_progress: { window: 2 } },
  });
  refused = fixtureProject();
  crash = fixtureProject();
});

afterAll(() => {
  cleanUp(sleepers);
  for (const fixture of [seed, budget, noProgress, refused, crash]) {
    rmSync(fixture.dir, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
});

describeOnBothStores(
  "the runner's stories on both stores",
  join(dir, "journal.db"),
  30,
  ({ name, flags, run, keep, reading }) => {
    it("tells the seed's story: two retries with feedback, the escalation, option 2, proceed (run 1)", () => {
      const first = run(seed, "seed run", ["run", seedTasks, "--quiet"]);
      expect(first.status, first.stderr).toBe(3);
      expect(first.stdout).toMatch(/^task-003\s+awaiting-answer\s+3\s/m);
      const answered = run(seed, "seed answer", [
        "answer",
        "task-003",
        "--option",
        "2",
        "--by",
        "tester",
      ]);
      expect(answered.status, answered.stderr).toBe(0);
      expect(answered.stdout).toContain("option 2 — Number (update implementation)");
      const resumed = run(seed, "seed resume", ["resume", "--run", "1", "--quiet"]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^task-003\s+proceeded\s+4\s+0\.08\s+VALIDATION_PASSED$/m);
      reading(seed, "seed", "task-003", 1);
      const history = run(seed, "seed history task", ["history", "task-003"]);
      expect(history.stdout).toContain("escalate (MAX_ITERATIONS)");
      expect(history.stdout).toContain("answered: option 2");
    });

    /**
     * A run of `fixture`'s task `t` that stops on `reason` and pauses; the answer `answer`; the
     * resume that ends the task as `outcome` reads in the table.
     */
    const stopped = (
      fixture: Fixture,
      key: string,
      runId: number,
      story: {
        readonly reason: string;
        /** `answer`'s flags; absent: `resume` takes the answer from `answers`, a file. */
        readonly answer?: string[];
        readonly answers?: string;
        readonly outcome: RegExp;
      },
    ) => {
      const first = run(fixture, `${key} run`, ["run", fixture.taskFile, "--quiet"]);
      expect(first.status, first.stderr).toBe(3);
      const waiting = run(fixture, `${key} waiting`, ["status", "--run", String(runId)]);
      expect(waiting.stdout).toMatch(/t awaits an answer/);
      expect(waiting.stdout).toContain(story.reason);
      if (story.answer !== undefined) {
        const answered = run(fixture, `${key} answer`, ["answer", "t", ...story.answer]);
        expect(answered.status, answered.stderr).toBe(0);
      }
      const given = story.answers === undefined ? [] : ["--answers", story.answers];
      const resumed = run(fixture, `${key} resume`, [
        "resume",
        "--run",
        String(runId),
        "--quiet",
        ...given,
      ]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(story.outcome);
      reading(fixture, key, "t", runId);
    };

    it("stops at the budget cap, and the answer --abort ends the task (run 2)", () => {
      stopped(budget, "budget", 2, {
        reason: "BUDGET_EXHAUSTED",
        answer: ["--abort", "--by", "tester"],
        outcome: /^t +aborted +2 /m,
      });
    });

    it("stops when the attempts fail the same way, and guidance from resume --answers carries the task on (run 3)", () => {
      stopped(noProgress, "no-progress", 3, {
        reason: "NO_PROGRESS",
        answers: noProgress.write(
          "answers.yaml",
          stringify({ answers: { t: [{ text: "print ok" }] } }),
        ),
        outcome: /^t +proceeded +3 /m,
      });
    });

    it("refuses a task file it cannot run with one line and exit 2, writing nothing", () => {
      const before = run(refused, "refused status before", ["status", "--all"]);
      expect(before.status, before.stderr).toBe(0);
      const misspelt = refused.write(
        "misspelt.yaml",
        "steps: {generate: {command: [x]}}\ntasks: [{id: t, prompt: p}]\nstop_conditions: {budget_capp: 1}\n",
      );
      const missing = refused.write(
        "missing.yaml",
        stringify({
          steps: { generate: { command: "echo" }, test: { command: ["no-such-test-runner"] } },
          tasks: [{ id: "t", prompt: "p" }],
        }),
      );
      for (const [key, file, error] of [
        [
          "misspelt",
          misspelt,
          /^error: stop_conditions: unknown key "budget_capp" \(did you mean "budget_cap"\?\)\n$/,
        ],
        [
          "missing",
          missing,
          /^error: steps\.test\.command\[0\]: program "no-such-test-runner" not found on PATH.*\n$/,
        ],
      ] as const) {
        const done = run(refused, `refused ${key}`, ["run", file, "--new"]);
        expect([done.status, done.stdout], done.stderr).toEqual([2, ""]);
        expect(done.stderr).toMatch(error);
        keep(`refused ${key} stderr`, done.stderr);
      }
      expect(run(refused, "refused status after", ["status", "--all"]).masked).toBe(before.masked);
    });

    it("resumes a run killed in a step: the step runs again, nothing else (run 4)", async () => {
      const fixture = crash;
      const began = join(fixture.dir, "began");
      rmSync(began, { force: true });
      // The first generate step hangs (20 s at most) until the runner is killed under it; its
      // second run, after the resume, does not.
      fixture.write(
        "loopgate.yaml",
        stringify({
          steps: {
            generate: {
              command: `if [ ! -e '${began}' ]; then echo $$ > '${began}'; i=0; while [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; fi; echo generated`,
            },
            test: { command: "echo ok" },
          },
          tasks: [{ id: "k", prompt: "do k" }],
        }),
      );
      const runner = startCli(["run", fixture.taskFile, "--quiet", ...flags()], fixture.dir);
      sleepers.push(await pidFrom(began));
      // Killed once its start is journaled, so both stores' journals hold the killed start.
      const journaled = () =>
        cli(["export", "--jsonl", "--run", "4", ...flags()], {}, fixture.dir).stdout.includes(
          '"step-started"',
        );
      expect(await eventually(journaled, 20_000)).toBe(true);
      runner.kill("SIGKILL");
      await new Promise((resolve) => runner.once("exit", resolve));
      const interrupted = run(fixture, "crash status", ["status", "--run", "4"]);
      expect(interrupted.stdout).toMatch(/^4 .* unfinished /m);
      const resuming = Date.now();
      const resumed = run(fixture, "crash resume", ["resume", "--run", "4", "--quiet"]);
      expect(resumed.status, resumed.stderr).toBe(0);
      // The killed runner's work in flight goes back on the queue with its task, at once: it does
      // not wait out the dead runner's lease (30 s) for a live worker to move it.
      expect(Date.now() - resuming).toBeLessThan(20_000);
      expect(resumed.stdout).toMatch(/^k +proceeded +1 /m);
      reading(fixture, "crash", "k", 4, true);
      const exported = cli(["export", "--jsonl", "--run", "4", ...flags()], {}, fixture.dir);
      const types = exported.stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types.filter((type) => type === "step-finished")).toHaveLength(2);
      // The one difference of the stores' journals: the SQLite driver journals the generate
      // step's second start too; PostgreSQL keeps the killed runner's (its place is taken).
      const starts = types.filter((type) => type === "step-started").length;
      expect(starts).toBe(name === "sqlite" ? 3 : 2);
    });

    it("tells the seed's story with the answer given up front: run --answers (run 5)", () => {
      const answers = join(ROOT, "examples", "jwt-login", "answers.yaml");
      const done = run(seed, "seed answers run", [
        "run",
        seedTasks,
        "--answers",
        answers,
        "--quiet",
      ]);
      expect([done.status, done.stderr]).toEqual([0, ""]);
      expect(done.stdout).toMatch(/^task-003\s+proceeded\s+4\s+0\.08\s+VALIDATION_PASSED$/m);
      reading(seed, "seed answers", "task-003", 5);
      const history = run(seed, "seed answers history", ["history", "--run", "5"]).stdout;
      expect(history).toContain("answered: option 2");
    });
  },
);
