import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runSummary } from "../core/loop/run-summary.js";
import { answersFrom, noAnswers, type AnswerSource } from "./answer-source.js";
import { Journal } from "./journal.js";
import { silentProgress } from "./progress.js";
import { bootId, readStat } from "./proc-table.js";
import { driveRun } from "./sqlite-driver.js";
import { fixtureProject, type Fixture } from "./test-support/fixture-project.js";
import { isAlive } from "./test-support/processes.js";

function start(fixture: Fixture, concurrency = 1): { journal: Journal; runId: number } {
  const journal = Journal.open(fixture.db);
  const document = parse(readFileSync(fixture.taskFile, "utf8")) as unknown;
  return {
    journal,
    runId: journal.createRun(fixture.taskFile, dirname(fixture.taskFile), document, concurrency),
  };
}

const outcomes = (state: Parameters<typeof runSummary>[0]) =>
  runSummary(state).map((task) => `${task.taskId}:${task.outcome}`);

const decisions = (journal: Journal, runId: number) =>
  journal
    .events(runId)
    .flatMap((entry) =>
      entry.event.type === "decision-recorded"
        ? [`${entry.event.iteration}:${entry.event.decision.action}:${entry.event.decision.reason}`]
        : [],
    );

/** What the runner journals with a step's pid, for a process started as a step would be. */
function journaledIdentity(pid: number) {
  return { pid, startTime: readStat(pid)!.startTime, bootId: bootId()!, token: `token-${pid}` };
}

describe("driveRun", () => {
  it("pauses at the escalation without an answer, and finishes after one on resume", async () => {
    const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "b"] });
    const { journal, runId } = start(fixture);
    const paused = await driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
    expect(paused.paused).toEqual([
      expect.objectContaining({ kind: "await-answer", taskId: "a", iteration: 3 }),
    ]);
    const answers = new Map([
      ["a", [{ kind: "text" as const, text: "use a number" }]],
      ["b", [{ kind: "option" as const, option: 1 }]],
    ]);
    const done = await driveRun({
      journal,
      runId,
      answers: answersFrom(answers, "answers.yaml"),
      progress: silentProgress,
    });
    expect(done.paused).toEqual([]);
    expect(
      runSummary(done.state).map((task) => [
        task.taskId,
        task.outcome,
        task.iterations,
        task.spend,
      ]),
    ).toEqual([
      ["a", "proceeded", 4, 1],
      ["b", "proceeded", 4, 1],
    ]);
    expect(decisions(journal, runId)).toEqual([
      "1:retry:TEST_FAILED",
      "2:retry:TEST_FAILED",
      "3:escalate:MAX_ITERATIONS",
      "4:proceed:VALIDATION_PASSED",
      "1:retry:TEST_FAILED",
      "2:retry:TEST_FAILED",
      "3:escalate:MAX_ITERATIONS",
      "4:proceed:VALIDATION_PASSED",
    ]);
    const answerFile = join(dirname(fixture.db), "runs", String(runId), "a", "4", "answer.txt");
    expect(readFileSync(answerFile, "utf8")).toContain("Guidance: use a number");
    journal.close();
  });

  it("never executes feedback: $(…), backticks and quotes reach the step as file contents only", async () => {
    const fixture = fixtureProject({ passFrom: 3 });
    const evil = '$(touch PWNED) `touch PWNED2` \'"; touch PWNED3; "';
    fixture.write("evil.txt", `FAIL src/a.test.ts\nExpected: ${evil}\nReceived: ${evil}\n`);
    const document = parse(readFileSync(fixture.taskFile, "utf8")) as {
      steps: Record<string, { command: unknown }>;
    };
    document.steps.test = { command: 'cat evil.txt; [ "$LOOPGATE_ITERATION" -ge 3 ]' };
    // The generate step keeps what it was handed, as an agent wrapper would read it.
    document.steps.generate = {
      command:
        'if [ -n "$LOOPGATE_FEEDBACK_FILE" ]; then cp "$LOOPGATE_FEEDBACK_FILE" "seen-$LOOPGATE_ITERATION.json"; fi',
    };
    const journal = Journal.open(fixture.db);
    const runId = journal.createRun(fixture.taskFile, fixture.dir, document);
    const result = await driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
    expect(result.paused).toEqual([]);
    for (const name of ["PWNED", "PWNED2", "PWNED3"])
      expect(existsSync(join(fixture.dir, name))).toBe(false);
    const seen = readFileSync(join(fixture.dir, "seen-2.json"), "utf8");
    expect(seen).toContain("touch PWNED");
    journal.close();
  });

  it("does not let two runners run the same run at once", async () => {
    const fixture = fixtureProject({ passFrom: 1, generateDelay: 1 });
    const { journal, runId } = start(fixture);
    const other = Journal.open(fixture.db);
    const first = driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(
      driveRun({ journal: other, runId, answers: noAnswers, progress: silentProgress }),
    ).rejects.toThrow(/is being run by pid/);
    expect((await first).paused).toEqual([]);
    expect(decisions(journal, runId)).toEqual(["1:proceed:VALIDATION_PASSED"]);
    journal.close();
    other.close();
  });

  it("stops with the step's problem when a report line breaks the protocol, and runs it again on resume", async () => {
    const fixture = fixtureProject({ passFrom: 1 });
    const document = parse(readFileSync(fixture.taskFile, "utf8")) as {
      steps: Record<string, { command: unknown }>;
    };
    document.steps.generate = { command: `echo '{"spnd": 1}' >> "$LOOPGATE_REPORT_FILE"` };
    const journal = Journal.open(fixture.db);
    const runId = journal.createRun(fixture.taskFile, fixture.dir, document);
    await expect(
      driveRun({ journal, runId, answers: noAnswers, progress: silentProgress }),
    ).rejects.toThrow(/unknown key "spnd" \(did you mean "spend"\?\)/);
    expect(journal.events(runId).map((entry) => entry.event.type)).toEqual(["step-started"]);
    journal.close();
  });

  it("works on the run's recorded concurrency: two tasks pause at once; a resume may override it", async () => {
    const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "b", "quick"] });
    const { journal, runId } = start(fixture, 2);
    const paused = await driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
    expect(paused.paused.map((effect) => effect.taskId)).toEqual(["a", "b"]);
    // The places a and b freed as they paused let quick run.
    expect(outcomes(paused.state)).toEqual([
      "a:awaiting-answer",
      "b:awaiting-answer",
      "quick:proceeded",
    ]);
    // One task at a time for this resume: tasks run in order, so a, paused, keeps the one place
    // and b's answer waits (at the run's own 2, b would go on).
    const answers = new Map([["b", [{ kind: "text" as const, text: "go on" }]]]);
    const resumed = await driveRun({
      journal,
      runId,
      concurrency: 1,
      answers: answersFrom(answers, "answers.yaml"),
      progress: silentProgress,
    });
    expect(outcomes(resumed.state)).toEqual([
      "a:awaiting-answer",
      "b:awaiting-answer",
      "quick:proceeded",
    ]);
    expect(resumed.paused.map((effect) => effect.taskId)).toEqual(["a", "b"]);
    expect(journal.run(runId)?.concurrency).toBe(2);
    journal.close();
  });

  it("asks one question at a time when several tasks pause at once", async () => {
    const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "b"] });
    const { journal, runId } = start(fixture, 2);
    let open = 0;
    const asked: string[] = [];
    // A person at a terminal: each question stays open a while before it is answered.
    const slowPerson: AnswerSource = async (effect) => {
      open += 1;
      asked.push(`${effect.taskId}:${open}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      open -= 1;
      return { answer: { kind: "text", text: "go on" }, source: "terminal" };
    };
    const done = await driveRun({ journal, runId, answers: slowPerson, progress: silentProgress });
    expect(done.paused).toEqual([]);
    expect(outcomes(done.state)).toEqual(["a:proceeded", "b:proceeded"]);
    // Both tasks paused together, yet no question was asked while another was open.
    expect(asked.sort()).toEqual(["a:1", "b:1"]);
    journal.close();
  });

  it("kills what is left of every step a dead runner had in flight before running them again", async () => {
    const fixture = fixtureProject({ passFrom: 1, tasks: ["a", "b"] });
    const { journal, runId } = start(fixture, 2);
    const orphans = ["a", "b"].map((taskId) => {
      const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
      const effectId = JSON.stringify([taskId, 1, "generate", 0]);
      journal.append(
        runId,
        { type: "step-started", effectId, taskId, iteration: 1, step: "generate" },
        { ...journaledIdentity(child.pid!), host: hostname() },
      );
      return once(child, "exit");
    });
    const done = await driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
    expect(await Promise.all(orphans)).toEqual([
      [null, "SIGKILL"],
      [null, "SIGKILL"],
    ]);
    expect(outcomes(done.state)).toEqual(["a:proceeded", "b:proceeded"]);
    journal.close();
  });

  it("journals each step's pid with its start time and boot id, and leaves a reused pid alone", async () => {
    const fixture = fixtureProject({ passFrom: 1 });
    const { journal, runId } = start(fixture);
    // A process that merely has the journaled pid now: it started at another time.
    const stranger = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    try {
      const effectId = JSON.stringify(["task-1", 1, "generate", 0]);
      const identity = journaledIdentity(stranger.pid!);
      journal.append(
        runId,
        { type: "step-started", effectId, taskId: "task-1", iteration: 1, step: "generate" },
        { ...identity, startTime: identity.startTime - 1, host: hostname() },
      );
      const done = await driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
      expect(outcomes(done.state)).toEqual(["task-1:proceeded"]);
      expect(isAlive(stranger.pid!)).toBe(true);
      const metas = journal
        .events(runId)
        .flatMap((entry) => (entry.event.type === "step-started" ? [entry.meta] : []));
      expect(metas.slice(1)).toEqual(
        Array(3).fill({
          pid: expect.any(Number),
          host: hostname(),
          startTime: expect.any(Number),
          bootId: bootId(),
          token: expect.stringMatching(/^[0-9a-f-]{36}$/),
        }),
      );
    } finally {
      stranger.kill("SIGKILL");
      journal.close();
    }
  });

  it("stops the other tasks when one fails, journaling nothing of their cut-off steps", async () => {
    const fixture = fixtureProject({ passFrom: 1, tasks: ["bad", "slow"] });
    const document = parse(readFileSync(fixture.taskFile, "utf8")) as {
      tasks: { id: string; steps?: unknown }[];
    };
    const [bad, slow] = document.tasks;
    if (bad === undefined || slow === undefined) throw new Error("two tasks expected");
    bad.steps = {
      generate: { command: `sleep 0.2; echo '{"spnd": 1}' >> "$LOOPGATE_REPORT_FILE"` },
    };
    slow.steps = { generate: { command: "sleep 30" } };
    const journal = Journal.open(fixture.db);
    const runId = journal.createRun(fixture.taskFile, fixture.dir, document, 2);
    await expect(
      driveRun({ journal, runId, answers: noAnswers, progress: silentProgress }),
    ).rejects.toThrow(/unknown key "spnd"/);
    const events = journal
      .events(runId)
      .map((entry) => `${entry.event.taskId} ${entry.event.type}`);
    expect(events.sort()).toEqual(["bad step-started", "slow step-started"]);
    journal.close();
  }, 20_000);
});
