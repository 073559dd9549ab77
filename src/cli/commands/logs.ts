import { describeEnd } from "../../core/loop/attempt-of.js";
import type { StepFinished } from "../../core/loop/loop-event.js";
import type { StepName, StepOutcome } from "../../core/loop/step-outcome.js";
import { runsFor } from "../../runner/find-runs.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { UsageError } from "../usage-error.js";

const STEPS: readonly StepName[] = ["generate", "test", "review"];

/** What a step printed as journaled: a review's feedback (its verdict is read from its output). */
function textOf(outcome: StepOutcome): string {
  return outcome.step === "review" ? outcome.feedback : outcome.output;
}

/** How the step ended, in the header's words. */
function endOf(outcome: StepOutcome): string {
  const verdict = outcome.step === "generate" ? "" : `${outcome.status}, `;
  return `${verdict}${describeEnd(outcome)}, ${(outcome.durationMs / 1000).toFixed(1)} s`;
}

/** `ITERATION` as an attempt number. */
function iterationOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
    throw new UsageError(
      `logs: ITERATION expects an attempt number (1, 2, …), got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

/** `loopgate logs`: what a step printed, as the journal captured it. */
export const logsCommand: Command = {
  help: `Usage: loopgate logs TASK [ITERATION] [STEP] [--run ID] [--store URL | --db PATH]

Prints what a task's steps printed (standard output and error interleaved, as
captured, bounded by output_limit_bytes), each under a header naming the
attempt, the step and how it ended. A review step shows the feedback read from
its verdict. Without ITERATION, the task's latest attempt; without STEP
(generate, test or review), every step of the attempt, review polls included.

  --run ID     the run (default: the latest run with events of TASK)
${storeHelp(15)}

Exit codes: 0 printed, 2 invalid arguments (no such task, attempt or step), 5
the run or journal is damaged, 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values, positionals } = parseOptions(
      "logs",
      args,
      { run: { type: "string" }, ...STORE_OPTIONS },
      3,
    );
    const [taskId, iterationText, stepText] = positionals;
    if (taskId === undefined) throw new UsageError("logs: missing TASK (see loopgate logs --help)");
    const iteration = iterationOf(iterationText);
    if (stepText !== undefined && !STEPS.includes(stepText as StepName)) {
      throw new UsageError(
        `logs: STEP expects one of ${STEPS.join(", ")}, got ${JSON.stringify(stepText)}`,
      );
    }
    const store = await openRunStore("logs", values, "read");
    try {
      const journal = await store.read({ run: runOption(values.run), task: taskId });
      const skipped = new SkippedRuns(stderr);
      const loaded = runsFor(journal, values.run, taskId, skipped.skip).at(-1);
      const finished = (loaded?.entries ?? []).flatMap(({ event }) =>
        event.type === "step-finished" && event.taskId === taskId ? [event] : [],
      );
      const runId = loaded?.run.id ?? 0;
      if (finished.length === 0) {
        throw new UsageError(
          `logs: task ${JSON.stringify(taskId)} has no finished step in run ${runId}`,
        );
      }
      const attempt = iteration ?? Math.max(...finished.map((event) => event.iteration));
      const picked = finished.filter(
        (event: StepFinished) =>
          event.iteration === attempt &&
          (stepText === undefined || event.outcome.step === stepText),
      );
      if (picked.length === 0) {
        throw new UsageError(
          `logs: task ${JSON.stringify(taskId)} has no finished ${stepText ?? "step"} in attempt ${attempt} of run ${runId}`,
        );
      }
      let text = "";
      for (const event of picked) {
        const body = textOf(event.outcome);
        text += `== ${taskId} · run ${runId} · attempt ${attempt} · ${event.outcome.step} (${endOf(event.outcome)}) ==\n`;
        text += body === "" ? "(no output)\n" : body.endsWith("\n") ? body : `${body}\n`;
      }
      stdout(text);
      return skipped.exitCode();
    } finally {
      await store.close();
    }
  },
};
