import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { Journal } from "./journal.js";
import { cli, requireBuild } from "./test-support/built-cli.js";
import { fixtureProject } from "./test-support/fixture-project.js";

// `run --concurrency N` through the built CLI: tasks' steps overlap, each task's story is the
// one it tells alone, paused tasks free their places for the others, and the flag is checked.

beforeAll(requireBuild);

/** Each task's story in the journal: its step results, decisions and answers, in order. */
function storiesOf(db: string): Record<string, string[]> {
  const journal = Journal.open(db);
  try {
    const stories: Record<string, string[]> = {};
    for (const { event } of journal.events(1)) {
      if (event.type === "step-started") continue;
      const told =
        event.type === "decision-recorded"
          ? `${event.effectId} ${event.decision.action} ${event.decision.reason}`
          : `${event.type} ${event.effectId}`;
      (stories[event.taskId] ??= []).push(told);
    }
    return stories;
  } finally {
    journal.close();
  }
}

/** The outcome column of the summary table, per task. */
const outcomes = (table: string) =>
  table
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(/\s+/).slice(0, 2).join(":"));

describe("loopgate run --concurrency (built CLI)", () => {
  it("runs two tasks' steps at once, each task's steps in order, each story as at concurrency 1", () => {
    const tasks = ["a", "b", "quick"];
    const together = fixtureProject({ passFrom: 2, tasks, meet: 2 });
    const run = cli(["run", together.taskFile, "--db", together.db, "--concurrency", "2"]);
    expect(run.status).toBe(0);
    expect(outcomes(run.stdout)).toEqual(["a:proceeded", "b:proceeded", "quick:proceeded"]);
    // Every progress line says which task it is about.
    for (const line of run.stderr.trim().split("\n")) {
      expect(tasks).toContain(line.split(" ")[0]);
    }
    const trace = together.trace();
    const at = (mark: string) => trace.indexOf(mark);
    // a's and b's first generate steps overlap: each began before the other ended.
    expect(at("a generate 1 start")).toBeLessThan(at("b generate 1 end"));
    expect(at("b generate 1 start")).toBeLessThan(at("a generate 1 end"));
    for (const id of tasks) {
      const own = trace.filter((line) => line.startsWith(`${id} `));
      const begun = own.filter((line) => line.endsWith(" start"));
      // A task's own steps never overlap: each ends before the next begins.
      expect(own).toEqual(begun.flatMap((line) => [line, line.replace(/ start$/, " end")]));
    }
    const alone = fixtureProject({ passFrom: 2, tasks });
    expect(cli(["run", alone.taskFile, "--db", alone.db, "--quiet"]).status).toBe(0);
    expect(storiesOf(together.db)).toEqual(storiesOf(alone.db));
  });

  it("lets the other tasks go on while one is paused, exits 3 listing every paused task, and resume keeps the run's concurrency", () => {
    const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "b", "quick"] });
    const run = cli(["run", fixture.taskFile, "--db", fixture.db, "--concurrency", "2"]);
    expect(run.status).toBe(3);
    // The places a and b freed as they paused let quick run.
    expect(outcomes(run.stdout)).toEqual([
      "a:awaiting-answer",
      "b:awaiting-answer",
      "quick:proceeded",
    ]);
    expect(run.stderr).toContain("\na awaits an answer (run 1, attempt 3, MAX_ITERATIONS)");
    expect(run.stderr).toContain("\nb awaits an answer (run 1, attempt 3, MAX_ITERATIONS)");
    expect(run.stderr).toContain("Answer each of a, b, then resume:");

    // b goes on though a, before it, is still paused: the resume kept the run's concurrency of 2
    // (at 1, tasks run in order and paused a would keep the one place).
    const onlyB = fixture.write("answers-b.yaml", "answers:\n  b: {text: use a number}\n");
    const resumed = cli(["resume", "--db", fixture.db, "--answers", onlyB, "--json", "--quiet"]);
    expect(resumed.status).toBe(3);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      status: "awaiting-answer",
      tasks: [
        { task_id: "a", outcome: "awaiting-answer" },
        { task_id: "b", outcome: "proceeded" },
        { task_id: "quick", outcome: "proceeded" },
      ],
      awaiting: { task_id: "a", iteration: 3 },
      awaiting_tasks: [{ task_id: "a", iteration: 3 }],
    });

    const both = fixture.write(
      "answers.yaml",
      "answers:\n  a: {text: go on}\n  b: {text: use a number}\n",
    );
    const finished = cli(["resume", "--db", fixture.db, "--answers", both, "--quiet"]);
    expect(finished.status).toBe(0);
    expect(outcomes(finished.stdout)).toEqual(["a:proceeded", "b:proceeded", "quick:proceeded"]);
  });

  it("goes on past paused tasks: 20 tasks, every 5th escalating, at 2 at once, exit 3 only once all 16 others proceeded", () => {
    const fixture = fixtureProject();
    const trace = `${fixture.dir}/steps.log`;
    // Each step marks its start and end, to count the steps running at once.
    const step = (command: string) =>
      `echo "+ $LOOPGATE_TASK_ID" >> '${trace}'; (${command}); code=$?; echo "- $LOOPGATE_TASK_ID" >> '${trace}'; exit $code`;
    const ids = Array.from({ length: 20 }, (_, index) => `t${index + 1}`);
    const taskFile = fixture.write(
      "twenty.yaml",
      stringify({
        iteration_control: { max_iterations: 1 },
        steps: {
          generate: { command: step("true") },
          // Every 5th task's test fails: at its one attempt, MAX_ITERATIONS escalates.
          test: { command: step('case "$LOOPGATE_TASK_ID" in t5|t10|t15|t20) exit 1;; esac') },
        },
        tasks: ids.map((id) => ({ id, prompt: `do ${id}` })),
      }),
    );
    const run = cli([
      "run",
      taskFile,
      "--db",
      fixture.db,
      "--concurrency",
      "2",
      "--json",
      "--quiet",
    ]);
    expect(run.status).toBe(3);
    const escalating = ["t5", "t10", "t15", "t20"];
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: "awaiting-answer",
      tasks: ids.map((id) =>
        escalating.includes(id)
          ? { task_id: id, outcome: "awaiting-answer", reason: "MAX_ITERATIONS" }
          : { task_id: id, outcome: "proceeded" },
      ),
      awaiting_tasks: escalating.map((id) => ({ task_id: id })),
    });
    let running = 0;
    let most = 0;
    for (const line of readFileSync(trace, "utf8").trim().split("\n")) {
      running += line.startsWith("+") ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBeLessThanOrEqual(2);
  });

  it("status lists every paused task and `answer` takes each of them, in any order", () => {
    const fixture = fixtureProject({ passFrom: 4, tasks: ["a", "b"] });
    expect(cli(["run", fixture.taskFile, "--db", fixture.db, "--concurrency", "2"]).status).toBe(3);
    const status = cli(["status", "--db", fixture.db]);
    expect(status.stdout).toContain("awaiting-answer");
    expect(status.stdout).toContain("run 1: a awaits an answer after attempt 3");
    expect(status.stdout).toContain("run 1: b awaits an answer after attempt 3");
    const json = JSON.parse(cli(["status", "--db", fixture.db, "--json"]).stdout) as {
      runs: { awaiting_tasks: { task_id: string }[] }[];
    };
    expect(json.runs[0]?.awaiting_tasks.map((task) => task.task_id)).toEqual(["a", "b"]);

    // b is the second paused task: it can be answered before a.
    const second = cli(["answer", "b", "--text", "use a number", "--db", fixture.db]);
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(cli(["answer", "b", "--abort", "--db", fixture.db]).status).toBe(2);
    expect(cli(["answer", "a", "--option", "1", "--db", fixture.db]).status).toBe(0);
    const finished = cli(["resume", "--db", fixture.db, "--quiet"]);
    expect(finished.status).toBe(0);
    expect(outcomes(finished.stdout)).toEqual(["a:proceeded", "b:proceeded"]);
  });

  it.each([
    ["run", "0"],
    ["run", "two"],
    ["run", "1.5"],
    ["run", "-1"],
    ["resume", "x"],
  ])("%s --concurrency=%s: exit 2, one line naming the flag and the value", (command, value) => {
    const fixture = fixtureProject();
    const args = command === "run" ? ["run", fixture.taskFile] : ["resume"];
    const refused = cli([...args, `--concurrency=${value}`, "--db", fixture.db]);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      `error: ${command}: --concurrency expects a positive integer (tasks at once), got "${value}"\n`,
    );
    expect(existsSync(fixture.db)).toBe(false);
  });
});
