import { resolve } from "node:path";
import { redact } from "../core/redaction/redaction.js";
import type { RunStep } from "../core/loop/loop-effect.js";
import type { StepOutcome } from "../core/loop/step-outcome.js";
import type { StepSpec } from "../wire/task-file.js";
import { localPaths } from "../feedback-stream/local-paths.js";
import { readReport } from "./report-file.js";
import { reviewVerdict } from "./review-verdict.js";
import { runCommand } from "./run-command.js";
import { stepFiles } from "./step-files.js";
import { collectReports } from "./test-reports.js";
import type { StepProcesses } from "./step-processes.js";
import { stepInvocation, withNotes } from "./agents/step-invocation.js";
import { headroomEnv, type StepHeadroom } from "./step-headroom.js";

/** A step's time limit when the task file sets none: long enough for an agent, short of forever. */
export const DEFAULT_STEP_TIMEOUT_MS = 60 * 60 * 1000;

/** Where and how a run executes its steps. */
export interface StepContext {
  /** The run's own directory: step files live under it. */
  readonly runDir: string;
  /** The task file's directory: a step's `cwd` is relative to it. */
  readonly baseDir: string;
  readonly outputLimit: number;
  /** The task's room left, told to the step in its environment; none is told when absent. */
  readonly headroom?: StepHeadroom;
  /** Called once the step's process runs. */
  readonly onSpawn?: (processes: StepProcesses) => void;
}

/**
 * Runs one step for the loop and reads its outcome: exit code for a test, the verdict for a
 * review, the report file's cost for any, and a test's declared reports. Captured text is
 * redacted before it is journaled, and absolute paths under the step's directory are made
 * relative to it.
 */
export async function executeStep(
  effect: RunStep,
  spec: StepSpec,
  context: StepContext,
): Promise<StepOutcome> {
  const protocol = stepFiles(context.runDir, effect);
  const cwd = resolve(context.baseDir, spec.cwd ?? ".");
  const startedAt = Date.now();
  const room = context.headroom ?? { iterationsLeft: 0, budgetLeft: null, timeLeftMs: null };
  const invocation = stepInvocation(spec, effect, protocol.env, room);
  const ran = await runCommand({
    command: invocation.command,
    ...(invocation.stdinFile === undefined ? {} : { stdinFile: invocation.stdinFile }),
    cwd,
    env: {
      ...process.env,
      ...spec.env,
      ...protocol.env,
      ...(context.headroom === undefined ? {} : headroomEnv(context.headroom)),
    },
    timeoutMs: spec.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
    outputLimit: context.outputLimit,
    ...(context.onSpawn === undefined ? {} : { onSpawn: context.onSpawn }),
  });
  const read = invocation.read(ran);
  const result = withNotes(ran, read.notes);
  const report = readReport(protocol.reportFile, context.outputLimit);
  const measure = {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    spend: report.spend + read.spend,
    tokens: report.tokens + read.tokens,
    ...(report.diff === undefined ? {} : { diff: redact(report.diff) }),
    ...(read.agent === undefined ? {} : { agent: read.agent }),
  };
  const output = redact(localPaths(cwd, result.output));
  switch (effect.step) {
    case "generate":
      return { step: "generate", ...measure, output };
    case "test": {
      const status = result.exitCode === 0 && !result.timedOut ? "pass" : "fail";
      if (spec.reports === undefined) return { step: "test", ...measure, status, output };
      const { reports, notes } = collectReports(spec.reports, cwd, startedAt, context.outputLimit);
      const gap = output === "" || output.endsWith("\n") ? "" : "\n";
      const noted = notes.length === 0 ? output : `${output}${gap}${notes.join("\n")}\n`;
      return { step: "test", ...measure, status, output: noted, reports };
    }
    case "review": {
      const verdict = reviewVerdict(result);
      return {
        step: "review",
        ...measure,
        status: verdict.status,
        feedback: redact(localPaths(cwd, verdict.feedback)),
        ...(verdict.score === undefined ? {} : { score: verdict.score }),
      };
    }
  }
}
