import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunStep } from "../core/loop/loop-effect.js";
import { executeStep } from "./execute-step.js";

/** Attempt 1's `step` of task `t`. */
function effect(step: RunStep["step"]): RunStep {
  return {
    kind: "run-step",
    id: `t#1 ${step}`,
    taskId: "t",
    iteration: 1,
    step,
    poll: 0,
    delayMs: 0,
    inputs: { prompt: "p", feedback: null, answer: null },
  };
}

describe("executeStep", () => {
  const baseDir = mkdtempSync(join(tmpdir(), "loopgate-execute-step-"));
  mkdirSync(join(baseDir, "app"));
  const context = { runDir: join(baseDir, "run"), baseDir, outputLimit: 64 * 1024 };

  it("writes paths under the step's directory relative to it in the test output", async () => {
    const outcome = await executeStep(
      effect("test"),
      {
        command: 'echo "at ($PWD/src/cart.test.js:5:3)"; echo "/elsewhere/x.js"; exit 1',
        cwd: "app",
      },
      context,
    );
    expect(outcome).toMatchObject({
      outcome: { status: "fail", output: "at (src/cart.test.js:5:3)\n/elsewhere/x.js\n" },
    });
  });

  it("does the same for a review's feedback, file URLs included", async () => {
    const verdict = JSON.stringify({ status: "reject", feedback: "PLACEHOLDER" });
    const outcome = await executeStep(
      effect("review"),
      {
        command: `printf '%s\\n' '${verdict}' | sed "s#PLACEHOLDER#file://$PWD/src/cart.js:7 uses ==#"`,
        cwd: "app",
      },
      context,
    );
    expect(outcome).toMatchObject({
      outcome: { status: "reject", feedback: "src/cart.js:7 uses ==" },
    });
  });

  it("tells a step that cannot start as a step error, the way the preflight says it", async () => {
    const missing = await executeStep(
      effect("test"),
      { command: ["pytst-nowhere", "-q"] },
      context,
    );
    expect(missing).toMatchObject({
      error: {
        step: "test",
        exitCode: null,
        message:
          'the test step could not start: command[0]: program "pytst-nowhere" not found on PATH',
      },
    });
    const gone = await executeStep(effect("generate"), { command: ["true"], cwd: "gone" }, context);
    expect(gone).toMatchObject({
      error: {
        message: expect.stringContaining('could not start: cwd: directory "gone" does not exist'),
      },
    });
  });

  it("tells a shell line whose program is missing (exit 127) as a step error", async () => {
    const run = await executeStep(effect("test"), { command: "pytst-nowhere -q" }, context);
    expect(run).toMatchObject({
      error: {
        message: "the test step's shell could not find a program (exit 127)",
        output: expect.stringContaining("pytst-nowhere"),
      },
    });
  });

  it("keeps a failing test and a failing generate step as outcomes: they are the attempt's", async () => {
    const test = await executeStep(effect("test"), { command: ["sh", "-c", "exit 2"] }, context);
    expect(test).toMatchObject({ outcome: { step: "test", status: "fail", exitCode: 2 } });
    const generate = await executeStep(effect("generate"), { command: "exit 3" }, context);
    expect(generate).toMatchObject({ outcome: { step: "generate", exitCode: 3 } });
  });

  it("tells a review that crashes without a verdict as a step error, with its output's end", async () => {
    const run = await executeStep(
      effect("review"),
      { command: ["sh", "-c", "echo 'Traceback: boom' >&2; exit 2"] },
      context,
    );
    expect(run).toEqual({
      error: expect.objectContaining({
        step: "review",
        message: "the review step exited with 2 without a verdict",
        output: "Traceback: boom\n",
      }),
    });
  });
});
