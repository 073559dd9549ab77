import type { AgentRun } from "../../core/loop/step-outcome.js";
import { agentWords } from "../../runner/agents/agent-words.js";
import { explainDecision } from "../../runner/decision-explanation.js";
import { runsFor } from "../../runner/find-runs.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import { columns } from "../../runner/summary-table.js";
import { formatNumber } from "../../core/format-number.js";
import type { DecisionRecorded } from "../../core/loop/loop-event.js";
import { answerGrant } from "../../core/loop/answer-grant.js";
import { answerOptions } from "../../core/loop/question-options.js";
import { STEP_ERROR } from "../../core/loop/step-error.js";
import { printable } from "../../core/printable.js";
import type { LoadedRun } from "../../runner/load-run.js";
import { toWire } from "../../wire/codec.js";
import { InputError } from "../../wire/input-error.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { UsageError } from "../usage-error.js";

/**
 * What humans did with a decision that paused the task: each answer with the room it granted,
 * or the task's cancellation, as lines under the explanation; "" when nothing.
 */
function humanLines(loaded: LoadedRun, recorded: DecisionRecorded): string {
  const at = loaded.entries.findIndex((entry) => entry.event === recorded);
  const plan = loaded.plan.tasks.find((task) => task.id === recorded.taskId);
  const check = recorded.input.iterationCheck;
  const decision = recorded.decision;
  const options =
    decision.action === "escalate" ? answerOptions(decision.question, decision.options) : [];
  const lines: string[] = [];
  for (const { event } of loaded.entries.slice(at + 1)) {
    if (event.taskId !== recorded.taskId || event.iteration !== recorded.iteration) continue;
    if (event.type === "task-cancelled") {
      lines.push(
        `cancelled${event.by === undefined ? "" : ` by ${event.by}`}${event.reason === undefined ? "" : ` — ${event.reason}`}`,
      );
    }
    if (event.type !== "answer-given" || plan === undefined) continue;
    const answer = event.answer;
    const effect =
      answer.kind === "option"
        ? options.find((option) => option.id === answer.option)?.effect
        : answer.kind === "text"
          ? "continue"
          : answer.kind;
    const said = answer.kind === "option" ? `option ${answer.option}` : answer.kind;
    let granted = "";
    if (effect === "continue") {
      const grant = answerGrant(
        {
          policy: plan.onAnswer,
          budgetCap: plan.stopConditions.budgetCap,
          spend: check.spend ?? 0,
          attempts: check.currentIteration,
          reason: decision.reason,
        },
        answer,
      );
      granted = `: granted ${grant.iterations} more attempts${grant.budget > 0 ? `, ${formatNumber(grant.budget)} more budget` : ""}${answer.kind !== "approve" && answer.kind !== "abort" && (answer.extraBudget !== undefined || answer.extraIterations !== undefined) ? " (as the answer asked)" : " (on_answer default)"}`;
    }
    lines.push(`answered ${said}${answer.by === undefined ? "" : ` by ${answer.by}`}${granted}`);
  }
  return lines.length === 0 ? "" : `\nThen:\n${lines.map((line) => `  ${line}\n`).join("")}`;
}

/** `loopgate explain`: why a journaled decision was taken. */
export const explainCommand: Command = {
  help: `Usage: loopgate explain TASK [ITERATION] [--run ID] [--store URL | --db PATH]
                        [--json]

Explains the task's decision at ITERATION (default: its latest decision): the
counters and limits it was taken on, each stop condition evaluated with its
values (fired or held, and why), and the SPEC §3 rule that matched. Reads the
decision's complete input from the journal.

Options:
  --run ID    the run (default: the latest run that ran TASK)
${storeHelp(14)}
  --json      print JSON

Exit codes: 0 printed, 2 invalid arguments (no such task or decision, no
journal), 5 the run is damaged or damaged runs were left out (named on stderr;
see loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values, positionals } = parseOptions(
      "explain",
      args,
      { run: { type: "string" }, ...STORE_OPTIONS, json: { type: "boolean" } },
      2,
    );
    const [taskId, iterationText] = positionals;
    if (taskId === undefined)
      throw new UsageError("explain: missing TASK (see loopgate explain --help)");
    if (iterationText !== undefined && !/^\d+$/.test(iterationText)) {
      throw new UsageError(
        `explain: ITERATION must be a positive integer, got ${JSON.stringify(iterationText)}`,
      );
    }
    const store = await openRunStore("explain", values, "read");
    try {
      const journal = await store.read({ run: runOption(values.run), task: taskId });
      const skipped = new SkippedRuns(stderr);
      const loaded = runsFor(journal, values.run, taskId, skipped.skip).at(-1);
      const run = loaded?.run;
      const taskState = loaded?.state.tasks.find((task) => task.id === taskId);
      const phase = taskState?.phase;
      const erredAt = taskState?.iteration;
      if (
        run !== undefined &&
        phase?.name === "step-error" &&
        (iterationText === undefined || Number(iterationText) === erredAt)
      ) {
        const { error } = phase;
        stdout(
          values.json === true
            ? `${JSON.stringify(toWire({ run: run.id, iteration: erredAt, reason: STEP_ERROR, error }), null, 2)}\n`
            : printable(`${taskId} attempt ${erredAt} (run ${run.id}): paused — ${STEP_ERROR}
  ${error.message}
A step error is the task file's, not the attempt's: the ${error.step} step could not be judged,
so nothing was decided, retried or sent to the agent. Fix the task file, then loopgate resume.
`),
        );
        return skipped.exitCode();
      }
      const decisions = (loaded?.entries ?? [])
        .map((entry) => entry.event)
        .filter(
          (event): event is DecisionRecorded =>
            event.type === "decision-recorded" &&
            event.taskId === taskId &&
            (iterationText === undefined || event.iteration === Number(iterationText)),
        );
      const recorded = decisions.at(-1);
      if (recorded === undefined || run === undefined || loaded === undefined) {
        throw new InputError(
          "TASK",
          `no decision for ${taskId}${iterationText === undefined ? "" : ` at iteration ${iterationText}`} (see loopgate history ${taskId})`,
        );
      }
      const { input, decision } = recorded;
      // Waits re-decide the same attempt; say so when this is one of several.
      const atAttempt = decisions.filter((event) => event.iteration === recorded.iteration).length;
      const explanation = explainDecision(input, decision);
      if (values.json === true) {
        stdout(
          `${JSON.stringify(toWire({ run: run.id, decision, input, ...explanation }), null, 2)}\n`,
        );
        return skipped.exitCode();
      }
      const check = input.iterationCheck;
      const cap = input.stopConditions.budgetCap;
      // How the attempt's agent ended, when a built-in adapter ran it: its own limit is news here.
      let agent: AgentRun | undefined;
      for (const { event } of loaded?.entries ?? []) {
        if (
          event.type === "step-finished" &&
          event.taskId === taskId &&
          event.iteration === recorded.iteration &&
          event.outcome.step === "generate"
        ) {
          agent = event.outcome.agent;
        }
      }
      const rows = explanation.conditions.map((evaluation) => [
        evaluation.code,
        evaluation.check.fired ? "FIRED" : "held",
        evaluation.check.reason,
      ]);
      stdout(
        `${taskId} attempt ${check.currentIteration} (run ${run.id}): ${decision.action} — ${decision.reason}
  test ${check.testResult.status}, review ${check.reviewResult.status}, spend ${formatNumber(check.spend ?? 0)}${cap === null || cap === undefined ? "" : ` of budget_cap ${formatNumber(cap)}`}, max_iterations ${check.maxIterations ?? input.iterationControl.maxIterations}, elapsed ${formatNumber(check.elapsedMs ?? 0)} ms, ${check.history?.length ?? 0} earlier attempts
${agent === undefined ? "" : `  generate:${agentWords(agent).slice(2)}${agent.sessionId === undefined ? "" : `, session ${agent.sessionId}`}\n`}${atAttempt > 1 ? `  (${atAttempt} decisions at this attempt; this is the last)\n` : ""}
Conditions, in precedence order:
${columns(["condition", "fired", "why"], rows).replace(/^(?=.)/gm, "  ")}
${explanation.rule}
${humanLines(loaded, recorded)}`,
      );
      return skipped.exitCode();
    } finally {
      await store.close();
    }
  },
};
