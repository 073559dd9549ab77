import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailability } from "../../test-support/postgres.js";
import { cli, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject, type Fixture } from "../test-support/fixture-project.js";
import { migratedUrl } from "../dbos/test-support/migrated-store.js";

// One command surface, two stores: the same stories told through the built CLI on the SQLite
// journal and on PostgreSQL, their outputs compared once both have run. The stores are filled
// in the same order, so their runs have the same ids.

const availability = postgresAvailability();

/** A store under test: the flags that name it. */
interface StoreCase {
  readonly name: "sqlite" | "postgres";
  readonly open: () => Promise<readonly string[]>;
}

const dir = mkdtempSync(join(tmpdir(), "loopgate-stores-"));

const STORES: StoreCase[] = [
  { name: "sqlite", open: () => Promise.resolve(["--db", join(dir, "journal.db")]) },
  {
    name: "postgres",
    open: async () => {
      return ["--store", await migratedUrl()];
    },
  },
];

/** The outputs each store printed, by what printed them, for the comparison at the end. */
const printed: Record<string, Partial<Record<StoreCase["name"], string>>> = {};

/** The same fixtures for both stores: a run's task file path is part of what is printed. */
let proceeding: Fixture;
let paused: Fixture;
let cancelled: Fixture;
let stepError: Fixture;
let brokenSteps = "";
let fixedSteps = "";

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
});

afterAll(() => {
  for (const fixture of [proceeding, paused, cancelled, stepError]) {
    rmSync(fixture.dir, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
});

/** What differs between any two runs of a story: times, durations and the store's flags. */
function masked(text: string, flags: readonly string[]): string {
  return text
    .replaceAll(flags.join(" "), "STORE")
    .replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+Z)?/g, "TIME")
    .replace(/^ {2}\d\d:\d\d:\d\d /gm, "  TIME ")
    .replace(/\b\d+\.\ds\b/g, "D.Ds")
    .replace(/\belapsed \d+ ms\b/g, "elapsed N ms");
}

/** `export --jsonl` without what differs between two runs of a story (seq, at, pid, host, durations). */
function story(jsonl: string): unknown[] {
  return jsonl
    .trim()
    .split("\n")
    .map((line) => {
      const { meta, ...event } = JSON.parse(line) as Record<string, unknown>;
      // Who ran a step, which each driver notes its own way: pid and host, what tells that
      // process from a later one of the same pid (start time, boot id, token), and on
      // PostgreSQL the worker's executor id.
      const noted = ["pid", "host", "startTime", "bootId", "token", "executor"];
      const rest = Object.fromEntries(
        Object.entries((meta ?? {}) as Record<string, unknown>).filter(
          ([key]) => !noted.includes(key),
        ),
      );
      delete event.seq;
      delete event.at;
      // Durations are the only numbers that differ: every `…_ms` key.
      return JSON.parse(
        JSON.stringify({ ...event, meta: rest }, (key, value: unknown) =>
          key.endsWith("_ms") ? "N" : value,
        ),
      ) as unknown;
    });
}

describe.skipIf(availability.skip !== false)(
  `the commands on both stores${availability.skip === false ? "" : ` (postgres skipped: ${availability.skip})`}`,
  () => {
    describe.each(STORES)("on $name", ({ name, open }) => {
      let flags: readonly string[] = [];
      /** Runs the CLI in `fixture`'s directory on this store; keeps its output under `key`. */
      const run = (fixture: Fixture, key: string, args: readonly string[]) => {
        const done = cli([...args, ...flags], {}, fixture.dir);
        (printed[key] ??= {})[name] = masked(done.stdout, flags);
        return done;
      };
      const reading = (fixture: Fixture, key: string, task: string, runId: number) => {
        for (const [what, args] of [
          ["status", ["status", "--run", String(runId)]],
          ["history", ["history", "--run", String(runId)]],
          ["explain", ["explain", task, "--run", String(runId)]],
        ] as const) {
          expect(run(fixture, `${key} ${what}`, args).status).toBe(0);
        }
        const exported = cli(
          ["export", "--jsonl", "--run", String(runId), ...flags],
          {},
          fixture.dir,
        );
        expect(exported.status, exported.stderr).toBe(0);
        (printed[`${key} export`] ??= {})[name] = JSON.stringify(story(exported.stdout));
      };

      beforeAll(async () => {
        flags = await open();
      });

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
        // The fix is an edit of the task file, which resume reads again (as it does on SQLite).
        stepError.write("loopgate.yaml", fixedSteps);
        const resumed = run(stepError, "step-error resume", ["resume", "--run", "4", "--quiet"]);
        expect(resumed.status, resumed.stderr).toBe(0);
        expect(resumed.stdout).toMatch(/^t +proceeded +1 /m);
        reading(stepError, "step-error", "t", 4);
      });
    });

    it("prints the same on both stores, but for the worker PostgreSQL names", () => {
      const keys = Object.keys(printed);
      expect(keys.length).toBeGreaterThan(20);
      for (const key of keys) {
        const { sqlite, postgres } = printed[key] ?? {};
        expect(sqlite, key).toBeDefined();
        const withoutWorkers = postgres?.replace(/\nrun \d+: held by workers: .*\n/g, "");
        expect(withoutWorkers, key).toBe(sqlite);
      }
    });
  },
);
