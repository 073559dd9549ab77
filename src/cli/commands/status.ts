import { activeTask, awaitedAnswers, stepErrors } from "../../core/loop/effects-of.js";
import { STEP_ERROR } from "../../core/loop/step-error.js";
import { runStatusOf } from "../../runner/find-runs.js";
import { runSummary } from "../../core/loop/run-summary.js";
import { readableRuns } from "../../runner/load-run.js";
import { openLocatedJournal } from "../../runner/session.js";
import { columns } from "../../runner/summary-table.js";
import { toWire } from "../../wire/codec.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { SkippedRuns } from "../skipped-runs.js";

/** `loopgate status`: the runs of a journal and what each waits for. */
export const statusCommand: Command = {
  help: `Usage: loopgate status [--db PATH] [--json]

Lists the runs in the journal — finished, awaiting an answer, or unfinished
(interrupted or running) — with their tasks' outcomes, and the question each
paused task asks.

Options:
  --db PATH   the journal (default: LOOPGATE_DB, else the first
              .loopgate/journal.db here or above)
  --json      print JSON

A damaged run is left out and named on stderr; the others are listed.

Exit codes: 0 printed, 2 invalid arguments or no journal, 5 damaged runs left
out (see loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values } = parseOptions(
      "status",
      args,
      { db: { type: "string" }, json: { type: "boolean" } },
      0,
    );
    const { journal, hint } = openLocatedJournal(values.db, "read");
    try {
      const skipped = new SkippedRuns(stderr);
      const runs = readableRuns(journal, journal.runIds(), skipped.skip).map(({ run, state }) => {
        const awaited = awaitedAnswers(state).map((effect) => ({
          taskId: effect.taskId,
          iteration: effect.iteration,
          reason: effect.decision.reason,
          options: effect.options,
        }));
        const errored = stepErrors(state).map(({ taskId, iteration, error }) => ({
          taskId,
          iteration,
          reason: STEP_ERROR,
          error,
        }));
        const status = runStatusOf(state);
        return {
          run: run.id,
          startedAt: run.createdAt,
          taskFile: run.taskFile,
          status,
          active: activeTask(state)?.id ?? null,
          awaiting: awaited[0] ?? null,
          awaitingTasks: awaited,
          stepErrors: errored,
          tasks: runSummary(state),
        };
      });
      if (values.json === true) {
        stdout(`${JSON.stringify(toWire({ runs }), null, 2)}\n`);
        return skipped.exitCode();
      }
      if (runs.length === 0) {
        stdout(`no runs in ${journal.path}\n`);
        return skipped.exitCode();
      }
      const rows = runs.map((run) => [
        String(run.run),
        run.startedAt.slice(0, 19).replace("T", " "),
        run.status,
        run.tasks.map((task) => `${task.taskId}:${task.outcome}`).join(" "),
        run.taskFile,
      ]);
      let text = columns(["run", "started", "status", "tasks", "task file"], rows);
      for (const run of runs) {
        for (const { taskId, iteration, error } of run.stepErrors) {
          text += `\nrun ${run.run}: ${taskId} is paused by a step error at attempt ${iteration} (${STEP_ERROR}): ${error.message}\n  fix the task file, then: loopgate resume --run ${run.run}\n`;
        }
        for (const awaiting of run.awaitingTasks) {
          const options = awaiting.options
            .map((option) => `${option.id}. ${option.label}`)
            .join("; ");
          text += `\nrun ${run.run}: ${awaiting.taskId} awaits an answer after attempt ${awaiting.iteration} (${awaiting.reason})${options === "" ? "" : ` — options: ${options}`}\n  loopgate answer ${awaiting.taskId} --option N | --text "…" | --approve | --abort${hint}\n`;
        }
      }
      stdout(text);
      return skipped.exitCode();
    } finally {
      journal.close();
    }
  },
};
