import { beforeAll, describe, expect, it } from "vitest";
import { Journal } from "./journal.js";
import { cli, requireBuild, startCli } from "./test-support/built-cli.js";
import { fixtureProject } from "./test-support/fixture-project.js";

// The crash test: kill -9 the runner at every point of a run, resume, and check that the
// journal tells the same story as an uninterrupted run — no decision lost or recorded twice,
// no journaled step run again.

beforeAll(requireBuild);

/** A fresh project and its answers file: one pause, answered up front, then a quick task. */
function project(generateDelay = 0) {
  const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "quick"], generateDelay });
  const answers = fixture.write("answers.yaml", "answers:\n  a: {text: go on}\n");
  return { ...fixture, answers };
}

/** The journal's story: decisions, step results, answers, each by the effect it carried out. */
function story(db: string) {
  const journal = Journal.open(db);
  try {
    const events = journal.events(1).map((entry) => entry.event);
    const done = events.filter((event) => event.type !== "step-started");
    const byTask: Record<string, string[]> = {};
    for (const event of done) (byTask[event.taskId] ??= []).push(`${event.type} ${event.effectId}`);
    return {
      decisions: done.flatMap((event) =>
        event.type === "decision-recorded"
          ? [`${event.taskId}#${event.iteration} ${event.decision.action} ${event.decision.reason}`]
          : [],
      ),
      done: done.map((event) => `${event.type} ${event.effectId}`),
      // Each task's own story: what tasks run at once tell, whatever order they interleave in.
      byTask,
      appends: events.length,
      types: events.map((event) => event.type),
    };
  } finally {
    journal.close();
  }
}

/**
 * The append counts to kill after. npm run fuzz kills after every append; the default suite's
 * slice kills after the first and the last append of each event type, which covers every kind of
 * write the runner makes, each early and late in a task's life.
 */
function killPoints(types: readonly string[]): number[] {
  const every = Array.from({ length: types.length - 1 }, (_, index) => index + 1);
  if (process.env.LOOPGATE_CRASH_EVERY !== undefined) return every;
  return every.filter((after) => {
    const type = types[after - 1] ?? "";
    return types.indexOf(type) === after - 1 || types.lastIndexOf(type) === after - 1;
  });
}

/** Whether the run was created before the kill. */
function hasRun(db: string): boolean {
  const journal = Journal.open(db);
  try {
    return journal.runIds().length > 0;
  } finally {
    journal.close();
  }
}

/** Resumes until the run finishes; a resume that crashes would show here as a non-zero exit. */
function resumeToEnd(db: string, answers: string): void {
  // No --concurrency: a resume keeps the run's own.
  const resumed = cli(["resume", "--db", db, "--answers", answers, "--quiet"]);
  expect(resumed.stderr).toBe("");
  expect(resumed.status).toBe(0);
}

describe("crash safety (built CLI)", () => {
  const reference = project();
  let expected: ReturnType<typeof story>;

  beforeAll(() => {
    const run = cli([
      "run",
      reference.taskFile,
      "--db",
      reference.db,
      "--answers",
      reference.answers,
      "--quiet",
    ]);
    expect(run.status).toBe(0);
    expected = story(reference.db);
    expect(expected.decisions).toEqual([
      "a#1 retry TEST_FAILED",
      "a#2 retry TEST_FAILED",
      "a#3 escalate MAX_ITERATIONS",
      "a#4 proceed VALIDATION_PASSED",
      "quick#1 proceed VALIDATION_PASSED",
    ]);
  });

  it("resumes to the same story after a SIGKILL right after each journal append", () => {
    for (const after of killPoints(expected.types)) {
      const { taskFile, db, answers } = project();
      const crashed = cli(["run", taskFile, "--db", db, "--answers", answers, "--quiet"], {
        LOOPGATE_CRASH_AFTER_APPENDS: String(after),
      });
      expect(crashed.signal, `append ${after}`).toBe("SIGKILL");
      expect(story(db).appends, `append ${after}`).toBe(after);
      resumeToEnd(db, answers);
      const told = story(db);
      expect(told.decisions, `append ${after}`).toEqual(expected.decisions);
      expect(told.done, `append ${after}`).toEqual(expected.done);
    }
  }, 300_000);

  it("resumes to the same story after kills at random moments, mid-step included", async () => {
    for (const delay of [40, 90, 150, 220, 300, 400]) {
      // A slower generate step makes the kill land inside a step as often as between steps.
      const { taskFile, db, answers } = project(0.1);
      const child = startCli(["run", taskFile, "--db", db, "--answers", answers, "--quiet"]);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      if (hasRun(db)) resumeToEnd(db, answers);
      // Killed before the run was created: nothing happened, so start it again.
      else
        expect(cli(["run", taskFile, "--db", db, "--answers", answers, "--quiet"]).status).toBe(0);
      const told = story(db);
      expect(told.decisions, `kill at ${delay} ms`).toEqual(expected.decisions);
      expect(told.done, `kill at ${delay} ms`).toEqual(expected.done);
    }
  }, 120_000);
});

describe("crash safety at --concurrency 2 (built CLI)", () => {
  let expected: ReturnType<typeof story>;

  beforeAll(() => {
    const sequential = project();
    const args = ["--answers", sequential.answers, "--quiet"];
    expect(cli(["run", sequential.taskFile, "--db", sequential.db, ...args]).status).toBe(0);
    expected = story(sequential.db);
  });

  /** Checks that a run told each task's story as the uninterrupted run at concurrency 1 did. */
  const expectSameStories = (db: string, what: string) => {
    const told = story(db);
    expect(told.byTask, what).toEqual(expected.byTask);
    expect([...told.decisions].sort(), what).toEqual([...expected.decisions].sort());
  };

  it("resumes to the same per-task stories after a SIGKILL right after each journal append", () => {
    for (const after of killPoints(expected.types)) {
      const { taskFile, db, answers } = project();
      const crashed = cli(
        ["run", taskFile, "--db", db, "--answers", answers, "--quiet", "--concurrency", "2"],
        { LOOPGATE_CRASH_AFTER_APPENDS: String(after) },
      );
      expect(crashed.signal, `append ${after}`).toBe("SIGKILL");
      expect(story(db).appends, `append ${after}`).toBe(after);
      resumeToEnd(db, answers);
      expectSameStories(db, `append ${after}`);
    }
  }, 300_000);

  it("resumes to the same per-task stories after kills at random moments, mid-step included", async () => {
    for (const delay of [60, 150, 250, 400]) {
      const { taskFile, db, answers } = project(0.1);
      const args = ["--db", db, "--answers", answers, "--quiet"];
      const child = startCli(["run", taskFile, ...args, "--concurrency", "2"]);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      if (hasRun(db)) resumeToEnd(db, answers);
      else expect(cli(["run", taskFile, ...args, "--concurrency", "2"]).status).toBe(0);
      expectSameStories(db, `kill at ${delay} ms`);
    }
  }, 120_000);
});
