import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunStep } from "../core/loop/loop-effect.js";
import { stepFiles } from "./step-files.js";

/** A test step of attempt 2 of task `t`, handed `inputs`. */
function testStep(inputs: Partial<RunStep["inputs"]> = {}): RunStep {
  return {
    kind: "run-step",
    id: "t#2 test",
    taskId: "t",
    iteration: 2,
    step: "test",
    poll: 0,
    delayMs: 0,
    inputs: { prompt: "Fix `$(rm -rf /)`", feedback: null, answer: null, ...inputs },
  };
}

describe("stepFiles", () => {
  it("writes the prompt and an empty report, and names them in the environment", () => {
    const runDir = mkdtempSync(join(tmpdir(), "loopgate-step-files-"));
    const { env, reportFile } = stepFiles(runDir, testStep());
    expect(env).toEqual({
      LOOPGATE_TASK_ID: "t",
      LOOPGATE_ITERATION: "2",
      LOOPGATE_STEP: "test",
      LOOPGATE_TASK_DIR: join(runDir, "t"),
      LOOPGATE_PROMPT_FILE: join(runDir, "t", "2", "prompt.md"),
      LOOPGATE_REPORT_FILE: reportFile,
    });
    expect(readFileSync(env.LOOPGATE_PROMPT_FILE ?? "", "utf8")).toBe("Fix `$(rm -rf /)`");
    expect(readFileSync(reportFile, "utf8")).toBe("");
  });

  it("empties a report left by an interrupted run of the same step", () => {
    const runDir = mkdtempSync(join(tmpdir(), "loopgate-step-files-"));
    const first = stepFiles(runDir, testStep());
    writeFileSync(first.reportFile, '{"spend": 1}\n');
    expect(readFileSync(stepFiles(runDir, testStep()).reportFile, "utf8")).toBe("");
  });

  it("hands feedback over as a JSON file and a text file", () => {
    const runDir = mkdtempSync(join(tmpdir(), "loopgate-step-files-"));
    const feedback = {
      summary: "1 test failed",
      actionableItems: ["fix `add`"],
      priority: "high" as const,
    };
    const { env } = stepFiles(runDir, testStep({ feedback }));
    const file = env.LOOPGATE_FEEDBACK_FILE ?? "";
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ summary: "1 test failed" });
    expect(readFileSync(file.replace(/\.json$/, ".txt"), "utf8")).toContain("- fix `add`");
    expect(env.LOOPGATE_ANSWER_FILE).toBeUndefined();
  });
});
