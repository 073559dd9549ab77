import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { redact } from "../core/feedback/redaction.js";
import type { RunStep } from "../core/loop/loop-effect.js";
import type { StepOutcome } from "../core/loop/step-outcome.js";
import type { StepSpec } from "../wire/task-file.js";
import { relativeTo } from "./relative-paths.js";
import { readReport } from "./report-file.js";
import { reviewVerdict } from "./review-verdict.js";
import { runCommand } from "./run-command.js";
import { stepFiles } from "./step-files.js";

/** A step's time limit when the task file sets none: long enough for an agent, short of forever. */
export const DEFAULT_STEP_TIMEOUT_MS = 60 * 60 * 1000;

/** Where and how a run executes its steps. */
export interface StepContext {
  /** The run's own directory: step files live under it. */
  readonly runDir: string;
  /** The task file's directory: a step's `cwd` is relative to it. */
  readonly baseDir: string;
  readonly outputLimit: number;
  /** Called once the step's process runs. */
  readonly onSpawn?: (pid: number) => void;
}

/**
 * Runs one step for the loop and reads its outcome: exit code for a test, the verdict for a
 * review, the report file's cost for any. Captured text is redacted before it is journaled, and
 * absolute paths under the step's directory are made relative to it.
 */
export async function executeStep(
  effect: RunStep,
  spec: StepSpec,
  context: StepContext,
): Promise<StepOutcome> {
  const protocol = stepFiles(context.runDir, effect);
  const cwd = resolve(context.baseDir, spec.cwd ?? ".");
  const result = await runCommand({
    command: spec.command,
    cwd,
    env: { ...process.env, ...spec.env, ...protocol.env },
    timeoutMs: spec.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
    outputLimit: context.outputLimit,
    ...(context.onSpawn === undefined ? {} : { onSpawn: context.onSpawn }),
  });
  const report = readReport(protocol.reportFile, context.outputLimit);
  const measure = {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    spend: report.spend,
    tokens: report.tokens,
    ...(report.diff === undefined ? {} : { diff: redact(report.diff) }),
  };
  const output = redact(local(cwd, result.output));
  switch (effect.step) {
    case "generate":
      return { step: "generate", ...measure, output };
    case "test":
      return {
        step: "test",
        ...measure,
        status: result.exitCode === 0 && !result.timedOut ? "pass" : "fail",
        output,
      };
    case "review": {
      const verdict = reviewVerdict(result);
      return {
        step: "review",
        ...measure,
        status: verdict.status,
        feedback: redact(local(cwd, verdict.feedback)),
        ...(verdict.score === undefined ? {} : { score: verdict.score }),
      };
    }
  }
}

/**
 * Captured text naming files as the agent sees them: relative to the step's directory, whether
 * a tool printed that directory as given or resolved (`/tmp` may be a symlink).
 */
function local(cwd: string, text: string): string {
  let real = cwd;
  try {
    real = realpathSync(cwd);
  } catch {
    // The directory is gone or never was: the step could not start, its note says so.
  }
  return relativeTo(cwd, real === cwd ? text : relativeTo(real, text));
}
