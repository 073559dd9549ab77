import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild, ROOT } from "../../runner/test-support/built-cli.js";

// A test step's declared reports, through the built CLI: the decision's feedback is read from
// the report a real runner wrote (Vitest's JUnit XML of the ufo project), the console adds
// nothing the report lacks, and a report the step did not write this time is not read.

beforeAll(requireBuild);

const REPORT = join(ROOT, "fixtures/real-world/vitest/ufo-join-resolve/report.junit.xml");

interface Recorded {
  readonly type: string;
  readonly input?: { iteration_check: { test_result: { reports?: string[]; output: string } } };
  readonly decision?: {
    action: string;
    feedback?: { summary: string; actionable_items: string[] };
  };
}

/** Runs a one-task file whose test step runs `test`, and returns its journaled decisions. */
function decisionsOf(test: string, reports: readonly string[]): Recorded[] {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-run-reports-"));
  mkdirSync(join(dir, "project"));
  const taskFile = join(dir, "loopgate.yaml");
  writeFileSync(
    taskFile,
    JSON.stringify({
      iteration_control: { max_iterations: 2 },
      steps: {
        generate: { command: "true", cwd: "project" },
        test: { command: test, cwd: "project", reports },
      },
      tasks: [{ id: "t", prompt: "fix joinURL" }],
    }),
  );
  const db = join(dir, "journal.db");
  const run = cli(["run", taskFile, "--db", db, "--quiet"], { LOOPGATE_REPORT: REPORT });
  expect(run.stderr).not.toContain("internal error");
  const exported = cli(["export", "--jsonl", "--db", db]);
  expect(exported.status).toBe(0);
  return exported.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Recorded)
    .filter((event) => event.type === "decision-recorded");
}

describe("loopgate run: a test step's reports", () => {
  it("reads the failures from the report the step wrote when its console says only a count", () => {
    const [decision] = decisionsOf(
      'mkdir -p reports && cp "$LOOPGATE_REPORT" reports/junit.xml && echo "Tests 6 failed | 81 passed" && exit 1',
      ["reports/*.xml"],
    );
    const feedback = decision?.decision?.feedback;
    const text = [feedback?.summary, ...(feedback?.actionable_items ?? [])].join("\n");
    expect(text).toContain("test/join.test.ts");
    expect(text).toContain("expected './a/./b' to be './a/b'");
    expect(text).toContain("test/resolve.test.ts:16");
    expect(decision?.input?.iteration_check.test_result.reports).toHaveLength(1);
  });

  it("does not read a report older than the step, and says so in the step's output", () => {
    const past = new Date(Date.now() - 3_600_000);
    // The step only sets the stale report's time back; it writes no report of its own.
    const [decision] = decisionsOf(
      `cp "$LOOPGATE_REPORT" junit.xml && touch -d '${past.toISOString()}' junit.xml && echo "1 failed" && exit 1`,
      ["junit.xml"],
    );
    const result = decision?.input?.iteration_check.test_result;
    expect(result?.reports).toBeUndefined();
    expect(result?.output).toContain(
      "loopgate: no report matching junit.xml was written by this step (1 older than the step)",
    );
  });

  it("refuses reports on a step other than test, naming the field, with exit 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopgate-bad-reports-"));
    const taskFile = join(dir, "loopgate.yaml");
    writeFileSync(
      taskFile,
      "steps: {generate: {command: [x], reports: [a.xml]}}\ntasks: [{id: t, prompt: p}]\n",
    );
    const run = cli(["run", taskFile, "--db", join(dir, "journal.db")]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: steps\.generate.*reports/);
  });
});
