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
      status: "fail",
      output: "at (src/cart.test.js:5:3)\n/elsewhere/x.js\n",
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
    expect(outcome).toMatchObject({ status: "reject", feedback: "src/cart.js:7 uses ==" });
  });
});
