import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runSummary } from "../core/loop/run-summary.js";
import { answersFrom, noAnswers } from "./answer-source.js";
import { Journal } from "./journal.js";
import { silentProgress } from "./progress.js";
import { driveRun } from "./sqlite-driver.js";
import { fixtureProject, type Fixture } from "./test-support/fixture-project.js";

function start(fixture: Fixture): { journal: Journal; runId: number } {
  const journal = Journal.open(fixture.db);
  const document = parse(readFileSync(fixture.taskFile, "utf8")) as unknown;
  return {
    journal,
    runId: journal.createRun(fixture.taskFile, dirname(fixture.taskFile), document),
  };
}

const decisions = (journal: Journal, runId: number) =>
  journal
    .events(runId)
    .flatMap((entry) =>
      entry.event.type === "decision-recorded"
        ? [`${entry.event.iteration}:${entry.event.decision.action}:${entry.event.decision.reason}`]
        : [],
    );

describe("driveRun", () => {
  it("pauses at the escalation without an answer, and finishes after one on resume", async () => {
    const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "b"] });
    const { journal, runId } = start(fixture);
    const paused = await driveRun({ journal, runId, answers: noAnswers, progress: silentProgress });
    expect(paused.paused).toMatchObject({ kind: "await-answer", taskId: "a", iteration: 3 });
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
    expect(done.paused).toBeNull();
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
    expect(result.paused).toBeNull();
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
    expect((await first).paused).toBeNull();
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
});
