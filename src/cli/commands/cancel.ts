import { cancelEvents } from "../../core/loop/cancel.js";
import { transition } from "../../core/loop/transition.js";
import { runStatusOf } from "../../runner/find-runs.js";
import { Leases } from "../../runner/lease.js";
import { isDamage, loadRun, type LoadedRun } from "../../runner/load-run.js";
import type { Journal } from "../../runner/journal.js";
import { EXIT, openLocatedJournal, whoAmI } from "../../runner/session.js";
import { killOrphans } from "../../runner/sqlite-driver.js";
import { runOption } from "../../runner/pick-run.js";
import { redactStrings } from "../../core/redaction/redact-strings.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { UsageError } from "../usage-error.js";

/** What `cancel` ends: a whole run, or one task in a run. */
interface Target {
  readonly loaded: LoadedRun;
  /** The task to cancel; every unfinished task of the run when absent. */
  readonly taskId?: string;
}

/** Whether the task is still to finish in the run. */
function unfinished(loaded: LoadedRun, taskId: string): boolean {
  return loaded.state.tasks.some((task) => task.id === taskId && task.phase.name !== "done");
}

/**
 * The run (and task) the operand names: a number is a run; anything else is a task, in `--run ID`
 * or else the latest readable run where it is not finished; no operand is the latest run that is
 * not over.
 */
function targetOf(
  journal: Journal,
  operand: string | undefined,
  run: string | undefined,
  skipped: SkippedRuns,
): Target {
  const chosen = runOption(run);
  const asRun = operand !== undefined && /^\d+$/.test(operand) ? runOption(operand) : undefined;
  if (asRun !== undefined) {
    if (chosen !== undefined) throw new UsageError("cancel: give a RUN or --run ID, not both");
    return { loaded: loadRun(journal, asRun) };
  }
  const taskId = operand;
  if (chosen !== undefined) {
    const loaded = loadRun(journal, chosen);
    if (taskId !== undefined && !loaded.plan.tasks.some((task) => task.id === taskId)) {
      throw new UsageError(`cancel: run ${chosen} has no task ${JSON.stringify(taskId)}`);
    }
    return { loaded, ...(taskId === undefined ? {} : { taskId }) };
  }
  for (const id of journal.runIds().reverse()) {
    let loaded: LoadedRun;
    try {
      loaded = loadRun(journal, id);
    } catch (error) {
      if (!isDamage(error)) throw error;
      skipped.skip(error);
      continue;
    }
    if (
      taskId === undefined
        ? runStatusOf(loaded.state) !== "finished" && runStatusOf(loaded.state) !== "cancelled"
        : unfinished(loaded, taskId)
    ) {
      return { loaded, ...(taskId === undefined ? {} : { taskId }) };
    }
  }
  throw new UsageError(
    taskId === undefined
      ? `cancel: no run in ${journal.path} is still going (see loopgate status)`
      : `cancel: no run has task ${JSON.stringify(taskId)} still going (see loopgate status)`,
  );
}

/** `loopgate cancel`: ends a run, or one task of it, with a journaled reason. */
export const cancelCommand: Command = {
  help: `Usage: loopgate cancel [RUN|TASK] [--reason TEXT] [--by NAME] [--run ID]
                       [--db PATH]

Ends a run, or one task of it, for good: each task not finished yet is
journaled as cancelled, with your reason, whatever it was waiting for (a
step, an answer). loopgate status then shows the run as cancelled, not as
unfinished; history and explain tell who cancelled it and why; resume has
nothing left to do for a cancelled task.

  RUN            a run id: cancel every unfinished task of that run
  TASK           a task id: cancel that task only, in --run ID or the latest
                 run where it is still going
  (neither)      cancel the latest run that is not over
  --reason TEXT  why, kept in the journal
  --by NAME      who cancels (default: your user name)
  --run ID       the run TASK is in
  --db PATH      the journal (default: LOOPGATE_DB, else the first
                 .loopgate/journal.db here or above)

A run another loopgate is carrying on right now is not cancelled (exit 4):
stop that runner first (Ctrl-C), then cancel. What is left of a step a dead
runner started is killed.

Exit codes: 0 cancelled, 2 invalid arguments (no such run or task, nothing
left to cancel), 4 another runner holds the run, 5 the run or journal is
damaged, 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values, positionals } = parseOptions(
      "cancel",
      args,
      {
        reason: { type: "string" },
        by: { type: "string" },
        run: { type: "string" },
        db: { type: "string" },
      },
      1,
    );
    if (values.reason?.trim() === "") throw new UsageError("cancel: --reason must not be empty");
    // Redacted before it is journaled, as answers are.
    const details = redactStrings({
      by: values.by ?? whoAmI(),
      ...(values.reason === undefined ? {} : { reason: values.reason }),
    });
    const { journal, hint } = openLocatedJournal(values.db, "write", { mustExist: true });
    try {
      const { loaded, taskId } = targetOf(
        journal,
        positionals[0],
        values.run,
        new SkippedRuns(stderr),
      );
      const runId = loaded.run.id;
      const leases = new Leases(journal);
      const taken = leases.acquire(`run:${runId}`);
      if (!taken.ok) {
        stderr(
          `error: cancel: run ${runId} is being run by pid ${taken.holder.pid} on ${taken.holder.host}; stop it first (Ctrl-C), then cancel\n`,
        );
        return EXIT.busy;
      }
      try {
        const events = cancelEvents(
          loaded.state,
          details,
          taskId === undefined ? undefined : [taskId],
        );
        if (events.length === 0) {
          throw new UsageError(
            `cancel: ${taskId === undefined ? `run ${runId}` : `task ${JSON.stringify(taskId)} of run ${runId}`} is over already: nothing to cancel`,
          );
        }
        killOrphans(loaded.entries);
        let state = loaded.state;
        for (const event of events) {
          state = transition(state, event).state;
          journal.append(runId, event, { source: "loopgate cancel" }, state);
        }
        const tasks = events.map((event) => event.taskId).join(", ");
        stdout(
          `cancelled in run ${runId}: ${tasks}${details.reason === undefined ? "" : ` — ${details.reason}`}\nrun ${runId} is now ${runStatusOf(state)} (loopgate status${hint})\n`,
        );
        return 0;
      } finally {
        leases.releaseAll();
      }
    } finally {
      journal.close();
    }
  },
};
