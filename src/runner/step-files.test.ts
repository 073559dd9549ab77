import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunStep } from "../core/loop/loop-effect.js";
import { StepFiles } from "./step-files.js";

/** What one step is handed, by a runner of its own. */
const stepFiles = (runDir: string, effect: RunStep) => new StepFiles(runDir).prepare(effect);

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
  it("writes the prompt, names it and the report file in the environment, and makes no report", () => {
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
    expect(existsSync(reportFile)).toBe(false);
    // The attempt's folder is there, so a step reporting with `>>` makes the file.
    expect(statSync(dirname(reportFile)).isDirectory()).toBe(true);
  });

  it("removes a report left by an interrupted run of the same step", () => {
    const runDir = mkdtempSync(join(tmpdir(), "loopgate-step-files-"));
    const first = stepFiles(runDir, testStep());
    writeFileSync(first.reportFile, '{"spend": 1}\n');
    expect(existsSync(stepFiles(runDir, testStep()).reportFile)).toBe(false);
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

  it("writes an attempt's inputs once for its steps, and again when a step changed or removed them", () => {
    const runDir = mkdtempSync(join(tmpdir(), "loopgate-step-files-"));
    const files = new StepFiles(runDir);
    const feedback = { summary: "1 test failed", actionableItems: [], priority: "high" as const };
    const generate = { ...testStep({ feedback }), id: "t#2 generate", step: "generate" as const };
    const prompt = files.prepare(generate).env.LOOPGATE_PROMPT_FILE ?? "";
    const written = statSync(prompt, { bigint: true }).ctimeNs;
    files.prepare(testStep({ feedback }));
    expect(statSync(prompt, { bigint: true }).ctimeNs).toBe(written);
    writeFileSync(prompt, "the agent wrote here");
    const fed = files.prepare(testStep({ feedback })).env.LOOPGATE_FEEDBACK_FILE ?? "";
    expect(readFileSync(prompt, "utf8")).toBe("Fix `$(rm -rf /)`");
    rmSync(join(runDir, "t", "2"), { recursive: true });
    files.prepare(testStep({ feedback }));
    expect(readFileSync(prompt, "utf8")).toBe("Fix `$(rm -rf /)`");
    expect(JSON.parse(readFileSync(fed, "utf8"))).toMatchObject({ summary: "1 test failed" });
    // Another attempt, or a task forgotten and run again, is handed its own files.
    files.forget("t");
    writeFileSync(prompt, "changed in place");
    files.prepare(testStep({ feedback }));
    expect(readFileSync(prompt, "utf8")).toBe("Fix `$(rm -rf /)`");
  });
});
