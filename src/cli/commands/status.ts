import { briefRun, readableRuns } from "../../runner/load-run.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import type { RunReader, TaskOwner } from "../../runner/store/run-store.js";
import { LoopgateError } from "../../core/errors.js";
import { toWire } from "../../wire/codec.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { runViewOf } from "../run-view.js";
import { statusText, TASKS_NAMED, TASKS_TOLD } from "../status-text.js";

/** The runs `status` shows: `--run ID`, else every run with `--all`, else the latest. */
function runsShown(journal: RunReader, id: number | undefined, all: boolean): number[] {
  const ids = journal.runIds();
  if (id === undefined) return all ? ids : ids.slice(-1);
  if (!ids.includes(id)) {
    throw new LoopgateError(
      "INVALID_USAGE",
      `no run ${id} in ${journal.path} (see loopgate status --all)`,
    );
  }
  return [id];
}

/** The workers holding a run's tasks, as `RunView.workers`: absent when the store names none. */
function workersOf(owners: ReadonlyMap<string, TaskOwner> | undefined) {
  if (owners === undefined || owners.size === 0) return {};
  const workers = [...owners].map(([taskId, owner]) => ({ taskId, ...owner }));
  return { workers: workers.sort((a, b) => a.taskId.localeCompare(b.taskId)) };
}

/** `loopgate status`: where the latest run (or every run) stands and what it waits for. */
export const statusCommand: Command = {
  help: `Usage: loopgate status [--run ID] [--all] [--store URL | --db PATH] [--json]

Shows the latest run — finished, awaiting an answer, or unfinished
(interrupted or running) — with its tasks' outcomes, and the question each
paused task asks. Only that run is read, however many the journal holds.

A run of more than ${TASKS_NAMED} tasks is summarised: counts by outcome and by
deciding condition, the aborted and cancelled tasks by name, and the paused
tasks with their questions, at most ${TASKS_TOLD} of each, the others counted.

Options:
  --run ID    this run instead of the latest
  --all       every task, nothing summarised; without --run, every run
${storeHelp(14)}
  --json      print JSON: every task of the runs shown

On a PostgreSQL store, a task a worker holds is named with the worker
(its DBOS executor id).

A damaged run is left out and named on stderr; the others are listed.

Exit codes: 0 printed, 2 invalid arguments or no journal, 5 damaged runs left
out (see loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values } = parseOptions(
      "status",
      args,
      {
        run: { type: "string" },
        all: { type: "boolean" },
        ...STORE_OPTIONS,
        json: { type: "boolean" },
      },
      0,
    );
    const all = values.all === true;
    const id = runOption(values.run);
    const store = await openRunStore("status", values, "read");
    const { hint } = store;
    try {
      const journal = await store.read({ run: id, all });
      const skipped = new SkippedRuns(stderr);
      const shown = runsShown(journal, id, all);
      // --all reads every event of the runs it tells, and so names any damage in them.
      const briefed = readableRuns(shown, skipped.skip, (runId) => briefRun(journal, runId, all));
      const owners = await Promise.all(briefed.map(({ run }) => store.owners(run.id)));
      const runs = briefed.map((brief, at) => ({ ...runViewOf(brief), ...workersOf(owners[at]) }));
      if (values.json === true) {
        stdout(`${JSON.stringify(toWire({ runs }), null, 2)}\n`);
        return skipped.exitCode();
      }
      if (shown.length === 0) {
        stdout(`no runs in ${journal.path}\n`);
        return skipped.exitCode();
      }
      if (runs.length > 0) stdout(statusText(runs, all, hint));
      return skipped.exitCode();
    } finally {
      await store.close();
    }
  },
};
