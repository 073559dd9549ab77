import { taskStateOf } from "../../core/loop/effects-of.js";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import { commitLine } from "../../runner/workspace/commit-line.js";
import { runsFor } from "../../runner/find-runs.js";
import { foldEntries } from "../../runner/fold-entries.js";
import { eventLine } from "../../runner/line-progress.js";
import { paintFor } from "../../runner/paint.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import { toWire } from "../../wire/codec.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";

/** Indents text under an event line. */
function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n");
}

/**
 * The options a paused task was offered beyond its question's own: "Restore attempt N and
 * continue / stop", which the runner adds when the best attempt is not the latest.
 */
function restoreOptions(event: LoopEvent, state: LoopState): string {
  const phase = taskStateOf(state, event.taskId)?.phase;
  if (phase?.name !== "awaiting-answer") return "";
  return phase.options
    .filter((option) => option.restore !== undefined)
    .map((option) => `\n${option.id}. ${option.label}`)
    .join("");
}

/** The details an event line leaves out: an attempt's commit, feedback items, escalation context, question, a step error's output. */
function details(event: LoopEvent, state: LoopState): string {
  const commit = commitLine(event);
  if (commit !== null) return `${indent(commit)}\n`;
  if (event.type === "step-errored") {
    return event.error.output.trim() === "" ? "" : `${indent(event.error.output)}\n`;
  }
  if (event.type !== "decision-recorded") return "";
  const decision = event.decision;
  if (decision.action === "retry") {
    const items = decision.feedback.actionableItems.map((item) => `- ${item}`).join("\n");
    return items === "" ? "" : `${indent(items)}\n`;
  }
  if (decision.action !== "escalate") return "";
  const context = decision.context;
  const pattern = context.patternDetected === null ? "" : `pattern: ${context.patternDetected}\n`;
  const question = `${decision.question.trimEnd()}${restoreOptions(event, state)}`;
  return `${indent(`${context.attemptsSummary.trimEnd()}\n${pattern}\n${question}`)}\n`;
}

/** `loopgate history`: the story of a run, or of one task across runs. */
export const historyCommand: Command = {
  help: `Usage: loopgate history [TASK] [--run ID] [--store URL | --db PATH] [--json]

Tells the whole story: every step result, decision (with its feedback or its
escalation context and question) and answer, in order. Without TASK, the
latest run; with TASK, that task in every run that ran it.

Options:
  --run ID    only this run
${storeHelp(14)}
  --json      print the journaled events as JSON

With TASK, a damaged run is left out and named on stderr.

Exit codes: 0 printed, 2 invalid arguments or no journal, 5 the run asked for
is damaged or damaged runs were left out (see loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values, positionals } = parseOptions(
      "history",
      args,
      { run: { type: "string" }, ...STORE_OPTIONS, json: { type: "boolean" } },
      1,
    );
    const taskId = positionals[0];
    const store = await openRunStore("history", values, "read");
    const paint = paintFor(false);
    try {
      const journal = await store.read({ run: runOption(values.run), task: taskId });
      const skipped = new SkippedRuns(stderr);
      const story: unknown[] = [];
      let text = "";
      for (const loaded of runsFor(journal, values.run, taskId, skipped.skip)) {
        const run = loaded.run;
        text += `run ${run.id} · ${run.createdAt} · ${run.taskFile}\n`;
        // The entries folded when loaded; folded again here for each line's state.
        foldEntries(loaded.plan, loaded.entries, (entry, state) => {
          story.push({
            seq: entry.seq,
            runId: run.id,
            at: entry.at,
            ...entry.event,
            meta: entry.meta,
          });
          const line = eventLine(entry.event, state, paint);
          if (line !== null)
            text += `  ${entry.at.slice(11, 19)} ${line}\n${details(entry.event, state)}`;
          // What on_proceed / on_abort did with the task's workspace, kept beside its decision.
          const end = entry.meta?.["workspace"];
          if (typeof end === "string") text += `${indent(end)}\n`;
        });
      }
      stdout(values.json === true ? `${JSON.stringify(toWire(story), null, 2)}\n` : text);
      return skipped.exitCode();
    } finally {
      await store.close();
    }
  },
};
