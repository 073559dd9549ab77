import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject, type Fixture } from "../test-support/fixture-project.js";
import { describeOnBothStores } from "./test-support/both-stores.js";

// One command surface, two stores: the same stories told through the built CLI on the SQLite
// journal and on PostgreSQL, their outputs compared once both have run. The stores are filled
// in the same order, so their runs have the same ids. More stories: store-stories.test.ts.

const dir = mkdtempSync(join(tmpdir(), "loopgate-stores-"));

/** The same fixtures for both stores: a run's task file path is part of what is printed. */
let proceeding: Fixture;
let paused: Fixture;
let cancelled: Fixture;
let stepError: Fixture;
let brokenSteps = "";
let fixedSteps = "";
let stillBroken = "";

beforeAll(() => {
  requireBuild();
  proceeding = fixtureProject({ passFrom: 2, tasks: ["a"] });
  // The test never passes: the task pauses after its second attempt (max_iterations 2).
  const stuck = (fixture: Fixture) =>
    fixture.write(
      "loopgate.yaml",
      stringify({
        iteration_control: { max_iterations: 2 },
        steps: { generate: { command: "echo generated" }, test: { command: "exit 1" } },
        tasks: [{ id: "stuck", prompt: "do stuck" }],
      }),
    );
  paused = fixtureProject();
  stuck(paused);
  cancelled = fixtureProject();
  stuck(cancelled);
  stepError = fixtureProject({ passFrom: 1, tasks: ["t"] });
  const steps = (review: string) => ({
    steps: {
      generate: { command: "echo generated" },
      test: { command: "echo ok" },
      review: { command: ["sh", "-c", review] },
    },
    tasks: [{ id: "t", prompt: "do t" }],
  });
  brokenSteps = stringify(steps("exit 2"));
  fixedSteps = stringify(steps(`echo '{"status": "approve", "feedback": ""}'`));
  stillBroken = stringify({
    ...steps("exit 2"),
    steps: { ...steps("").steps, review: { command: ["no-such-reviewer"] } },
  });
});

afterAll(() => {
  for (const fixture of [proceeding, paused, cancelled, stepError]) {
    rmSync(fixture.dir, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
});

describeOnBothStores(
  "the commands on both stores",
  join(dir, "journal.db"),
  20,
  ({ flags, run, keep, reading }) => {
    it("runs a task to its end (run 1)", () => {
      const done = run(proceeding, "proceeding run", ["run", proceeding.taskFile, "--quiet"]);
      expect([done.status, done.stderr]).toEqual([0, ""]);
      expect(done.stdout).toMatch(/^a +proceeded +2 /m);
      reading(proceeding, "proceeding", "a", 1);
    });

    it("pauses a task, takes the answer, and carries the run on to its end (run 2)", () => {
      const first = run(paused, "paused run", ["run", paused.taskFile, "--quiet"]);
      expect(first.status, first.stderr).toBe(3);
      const waiting = run(paused, "paused status", ["status", "--run", "2"]);
      expect(waiting.stdout).toMatch(/stuck awaits an answer/);
      // The run process handed the paused task back to the queue as it ended: nobody holds it
      // (a live worker's hold is named: postgres-commands.test.ts).
      expect(waiting.stdout).not.toContain("held by workers");
      const answered = run(
        paused,
        "paused answer",
        "answer stuck --approve --by tester".split(" "),
      );
      expect(answered.status, answered.stderr).toBe(0);
      expect(answered.stdout).toMatch(
        /^recorded for stuck \(run 2\): approve\nnext: loopgate resume/,
      );
      const resumed = run(paused, "paused resume", ["resume", "--run", "2", "--quiet"]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^stuck +proceeded +2 .*APPROVAL_GATE/m);
      reading(paused, "paused", "stuck", 2);
    });

    it("cancels a paused run with a journaled reason (run 3)", () => {
      expect(run(cancelled, "cancelled run", ["run", cancelled.taskFile, "--quiet"]).status).toBe(
        3,
      );
      const done = run(cancelled, "cancelled cancel", [
        "cancel",
        "3",
        "--reason",
        "not needed",
        "--by",
        "tester",
      ]);
      expect(done.status, done.stderr).toBe(0);
      expect(done.stdout).toMatch(
        /^cancelled in run 3: stuck — not needed\nrun 3 is now cancelled/,
      );
      expect(run(cancelled, "cancelled resume", ["resume", "--run", "3"]).stdout).toMatch(
        /^run 3 is over: nothing to resume/,
      );
      reading(cancelled, "cancelled", "stuck", 3);
    });

    it("carries a task paused by a step error on with the fixed task file (run 4)", () => {
      stepError.write("loopgate.yaml", brokenSteps);
      const first = run(stepError, "step-error run", ["run", stepError.taskFile, "--quiet"]);
      expect(first.status, first.stderr).toBe(3);
      const story = () =>
        cli(["export", "--jsonl", "--run", "4", ...flags()], {}, stepError.dir).stdout;
      const before = story();
      // A fix whose step still cannot start is refused before anything is written or rewound.
      stepError.write("loopgate.yaml", stillBroken);
      const refused = run(stepError, "step-error refused", ["resume", "--run", "4", "--quiet"]);
      expect([refused.status, refused.stdout]).toEqual([2, ""]);
      expect(refused.stderr).toMatch(
        /^error: steps\.review\.command\[0\]: program "no-such-reviewer" not found on PATH.*\n$/,
      );
      keep("step-error refused stderr", refused.stderr);
      expect(story()).toBe(before);
      // The fix is an edit of the task file, which resume reads again (as it does on SQLite).
      stepError.write("loopgate.yaml", fixedSteps);
      const resumed = run(stepError, "step-error resume", ["resume", "--run", "4", "--quiet"]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^t +proceeded +1 /m);
      reading(stepError, "step-error", "t", 4);
    });
  },
);
