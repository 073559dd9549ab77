import { cancelEvents } from "../../core/loop/cancel.js";
import { transition } from "../../core/loop/transition.js";
import { runStatusOf } from "../../runner/find-runs.js";
import { isDamage, loadRun, type LoadedRun } from "../../runner/load-run.js";
import { EXIT, whoAmI } from "../../runner/session.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import type { RunReader, RunStore } from "../../runner/store/run-store.js";
import type { TaskCancelled } from "../../core/loop/loop-event.js";
import { JournalError } from "../../runner/journal-error.js";
import { redactStrings } from "../../core/redaction/redact-strings.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
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
  journal: RunReader,
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

/** How often `cancel` reads the run again when a worker appended to a task meanwhile. */
const CANCEL_TRIES = 10;

/**
 * Journals `events`, each at the end of its task's story; where a worker appended meanwhile
 * (PostgreSQL), the run is read again and what is still unfinished of those tasks cancelled
 * then. Returns the run's state after them.
 */
async function journalCancel(
  store: RunStore,
  loaded: LoadedRun,
  events: readonly TaskCancelled[],
  details: { readonly by: string; readonly reason?: string },
) {
  let state = loaded.state;
  let entries = loaded.entries;
  let pending = events;
  for (let tries = 0; pending.length > 0; tries += 1) {
    if (tries === CANCEL_TRIES) {
      throw new JournalError(
        "JOURNAL_CHANGED",
        `cancel: run ${loaded.run.id} kept changing while it was cancelled; cancel again`,
      );
    }
    const refused: string[] = [];
    for (const event of pending) {
      const place = entries.filter((entry) => entry.event.taskId === event.taskId).length;
      const after = transition(state, event).state;
      if (await store.append(loaded.run.id, event, { source: "loopgate cancel" }, place, after)) {
        state = after;
      } else refused.push(event.taskId);
    }
    if (refused.length === 0) break;
    const again = loadRun(await store.read({ run: loaded.run.id }), loaded.run.id);
    ({ state, entries } = again);
    pending = cancelEvents(state, details, refused);
  }
  return state;
}

/** `loopgate cancel`: ends a run, or one task of it, with a journaled reason. */
export const cancelCommand: Command = {
  help: `Usage: loopgate cancel [RUN|TASK] [--reason TEXT] [--by NAME] [--run ID]
                       [--store URL | --db PATH]

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
${storeHelp(17)}

A run another loopgate is carrying on right now is not cancelled (exit 4):
stop that runner first (Ctrl-C), then cancel. What is left of a step a dead
runner started is killed. On a PostgreSQL store the tasks' workflows are
cancelled (DBOS) while their workers run: no further step of them starts, and
what a step in flight reports after the cancellation is not journaled.

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
        ...STORE_OPTIONS,
      },
      1,
    );
    if (values.reason?.trim() === "") throw new UsageError("cancel: --reason must not be empty");
    // Redacted before it is journaled, as answers are.
    const details = redactStrings({
      by: values.by ?? whoAmI(),
      ...(values.reason === undefined ? {} : { reason: values.reason }),
    });
    const store = await openRunStore("cancel", values, "write", { mustExist: true });
    const { hint } = store;
    try {
      const { loaded, taskId } = targetOf(
        await store.read({ all: true }),
        positionals[0],
        values.run,
        new SkippedRuns(stderr),
      );
      const runId = loaded.run.id;
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
      const hold = await store.holdForCancel(
        loaded,
        events.map((event) => event.taskId),
      );
      if (hold.kind === "busy") {
        stderr(
          `error: cancel: run ${runId} is being run by pid ${hold.pid} on ${hold.host}; stop it first (Ctrl-C), then cancel\n`,
        );
        return EXIT.busy;
      }
      try {
        const state = await journalCancel(store, loaded, events, details);
        const tasks = events.map((event) => event.taskId).join(", ");
        stdout(
          `cancelled in run ${runId}: ${tasks}${details.reason === undefined ? "" : ` — ${details.reason}`}\nrun ${runId} is now ${runStatusOf(state)} (loopgate status${hint})\n`,
        );
        return 0;
      } finally {
        hold.release();
      }
    } finally {
      await store.close();
    }
  },
};
