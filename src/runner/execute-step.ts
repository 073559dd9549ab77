import { resolve } from "node:path";
import { redact } from "../core/redaction/redaction.js";
import type { RunStep } from "../core/loop/loop-effect.js";
import type { StepErrored, StepFinished } from "../core/loop/loop-event.js";
import type { StepError } from "../core/loop/step-error.js";
import type { StepOutcome } from "../core/loop/step-outcome.js";
import type { StepSpec } from "../wire/task-file.js";
import { localPaths } from "../feedback-stream/local-paths.js";
import { reviewVerdict } from "./review-verdict.js";
import { stepProblem } from "./preflight.js";
import { runCommand, type CommandResult, type CommandSpec } from "./run-command.js";
import { StepFiles } from "./step-files.js";
import { readReport } from "./report-file.js";
import { collectReports } from "./test-reports.js";
import type { RunningStep } from "./step-processes.js";
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
  readonly onSpawn?: (processes: RunningStep) => void;
  /** What runs the step's command: `runCommand` in this process when absent (see `StepLauncher`). */
  readonly launch?: (spec: CommandSpec) => Promise<CommandResult>;
  /** The runner's step files under `runDir`, shared by its steps; each step writes its own when absent. */
  readonly files?: StepFiles;
  /**
   * The runner's environment, copied once for its steps; `process.env` when absent. Copying
   * `process.env` looks every variable up in the process's environment again, for each step.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A step's run: the outcome the loop decides on, or the error that keeps it from one. */
export type StepRun = { readonly outcome: StepOutcome } | { readonly error: StepError };

/** The event that journals a step's run of `effect`: finished with its outcome, or errored. */
export function stepRunEvent(effect: RunStep, ran: StepRun): StepFinished | StepErrored {
  const base = { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
  return "error" in ran
    ? { type: "step-errored", ...base, error: ran.error }
    : { type: "step-finished", ...base, outcome: ran.outcome };
}

/** How much of a step's output a step error keeps: the end, where a crash says why. */
const ERROR_TAIL_CHARS = 2_000;

/** The last `ERROR_TAIL_CHARS` of a step's output, cut at a line start where one is near. */
function tailOf(output: string): string {
  if (output.length <= ERROR_TAIL_CHARS) return output;
  const tail = output.slice(-ERROR_TAIL_CHARS);
  const line = tail.indexOf("\n");
  return line >= 0 && line < 200 ? tail.slice(line + 1) : tail;
}

/**
 * Why a step cannot be judged, when it cannot: it never started (its program or `cwd` gone,
 * said as the preflight would say it), or a shell line's shell could not find or run its
 * program (exit 127 or 126). A review's crash is told by its verdict (`reviewVerdict`).
 */
function startErrorOf(
  effect: RunStep,
  spec: StepSpec,
  context: StepContext,
  result: CommandResult,
): string | undefined {
  if (result.notStarted !== undefined) {
    const problem = stepProblem(spec, context.baseDir);
    return problem === undefined
      ? `the ${effect.step} step could not start: ${result.notStarted}`
      : `the ${effect.step} step could not start: ${problem.field}: ${problem.message}`;
  }
  if (typeof spec.command === "string" && (result.exitCode === 127 || result.exitCode === 126)) {
    const why = result.exitCode === 127 ? "find" : "run";
    return `the ${effect.step} step's shell could not ${why} a program (exit ${result.exitCode})`;
  }
  return undefined;
}

/**
 * Runs one step for the loop and reads its outcome: exit code for a test, the verdict for a
 * review, the report file's cost for any, and a test's declared reports — or its step error,
 * when it could not be judged (see `startErrorOf`, `reviewVerdict`). Captured text is redacted
 * before it is journaled, and absolute paths under the step's directory are made relative to it.
 */
export async function executeStep(
  effect: RunStep,
  spec: StepSpec,
  context: StepContext,
): Promise<StepRun> {
  const protocol = (context.files ?? new StepFiles(context.runDir)).prepare(effect);
  const cwd = resolve(context.baseDir, spec.cwd ?? ".");
  const startedAt = Date.now();
  const room = context.headroom ?? { iterationsLeft: 0, budgetLeft: null, timeLeftMs: null };
  const invocation = stepInvocation(spec, effect, protocol.env, room);
  const ran = await (context.launch ?? runCommand)({
    command: invocation.command,
    ...(invocation.stdinFile === undefined ? {} : { stdinFile: invocation.stdinFile }),
    cwd,
    env: {
      ...(context.env ?? process.env),
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
  const failed = (message: string): StepRun => ({
    error: { step: effect.step, ...measure, message: redact(message), output: tailOf(output) },
  });
  const notStarted = startErrorOf(effect, spec, context, result);
  if (notStarted !== undefined) return failed(notStarted);
  switch (effect.step) {
    case "generate":
      return { outcome: { step: "generate", ...measure, output } };
    case "test": {
      const status = result.exitCode === 0 && !result.timedOut ? "pass" : "fail";
      if (spec.reports === undefined)
        return { outcome: { step: "test", ...measure, status, output } };
      const { reports, notes } = collectReports(spec.reports, cwd, startedAt, context.outputLimit);
      const gap = output === "" || output.endsWith("\n") ? "" : "\n";
      const noted = notes.length === 0 ? output : `${output}${gap}${notes.join("\n")}\n`;
      return { outcome: { step: "test", ...measure, status, output: noted, reports } };
    }
    case "review": {
      const verdict = reviewVerdict(result);
      if (verdict.status === "crashed") return failed(`the review step ${verdict.ended}`);
      return {
        outcome: {
          step: "review",
          ...measure,
          status: verdict.status,
          feedback: redact(localPaths(cwd, verdict.feedback)),
          ...(verdict.score === undefined ? {} : { score: verdict.score }),
        },
      };
    }
  }
}
