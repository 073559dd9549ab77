import { DEFAULT_OUTPUT_LIMIT } from "../../runner/bounded-output.js";
import { runsFor } from "../../runner/find-runs.js";
import { runOption } from "../../runner/pick-run.js";
import { openRunStore } from "../../runner/store/open-run-store.js";
import { attemptGenerations } from "../../runner/workspace/attempt-generations.js";
import { commitDiff } from "../../runner/workspace/commit-diff.js";
import { repositoryTop } from "../../runner/workspace/repository.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { storeHelp, STORE_OPTIONS } from "../store-options.js";
import { SkippedRuns } from "../skipped-runs.js";
import { UsageError } from "../usage-error.js";

/** An attempt number operand or option; a usage error unless it is a positive integer. */
function attemptNumber(what: string, value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
    throw new UsageError(`diff: ${what} must be an attempt number, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** `loopgate diff`: what an attempt changed, as journaled. */
export const diffCommand: Command = {
  help: `Usage: loopgate diff TASK [N] [--against M] [--run ID]
                     [--store URL | --db PATH]

Prints the diff of TASK's attempt N (default: its latest attempt) against the
commit the task started from, as the journal keeps it (bounded and redacted).
With --against M, the diff from attempt M's commit to attempt N's: the journal's
own for M = N - 1, else git's between the two journaled commits. Without a git
workspace only the diff a generate step reported is known (see
docs/workspaces.md).

Options:
  --against M  diff against attempt M instead of the task's base
  --run ID     the run (default: the latest run that ran TASK)
${storeHelp(15)}

Exit codes: 0 printed (nothing when the attempt changed nothing), 2 invalid
arguments (no such task or attempt, no diff known), 5 the run is damaged (see
loopgate doctor), 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values, positionals } = parseOptions(
      "diff",
      args,
      { against: { type: "string" }, run: { type: "string" }, ...STORE_OPTIONS },
      2,
    );
    const [taskId, attemptText] = positionals;
    if (taskId === undefined) throw new UsageError("diff: missing TASK (see loopgate diff --help)");
    const store = await openRunStore("diff", values, "read");
    try {
      const journal = await store.read({ run: runOption(values.run), task: taskId });
      const skipped = new SkippedRuns(stderr);
      // runsFor names a task no run has; the latest run that has it is read.
      const loaded = runsFor(journal, values.run, taskId, skipped.skip).at(-1);
      const generations = loaded === undefined ? undefined : attemptGenerations(loaded, taskId);
      const latest = Math.max(0, ...(generations?.keys() ?? []));
      const attempt = attemptText === undefined ? latest : attemptNumber("N", attemptText);
      const outcome = generations?.get(attempt);
      if (loaded === undefined || generations === undefined || outcome === undefined) {
        throw new UsageError(
          `diff: ${taskId} has no attempt ${attempt === 0 ? "yet" : attempt} (see loopgate history ${taskId})`,
        );
      }
      const against =
        values.against === undefined ? undefined : attemptNumber("--against", values.against);
      if (against === undefined) {
        if (outcome.diff === undefined) {
          throw new UsageError(
            `diff: no diff is known for ${taskId} attempt ${attempt}: give the task a git workspace (docs/workspaces.md)`,
          );
        }
        stdout(outcome.diff);
        return skipped.exitCode();
      }
      const other = generations.get(against);
      if (outcome.commit === undefined || other?.commit === undefined) {
        throw new UsageError(
          `diff: --against ${against} needs both attempts committed in a git workspace, and ${taskId} attempt ${other === undefined ? against : attempt} has no commit`,
        );
      }
      if (against === attempt - 1) stdout(outcome.commit.diffFromPrevious);
      else {
        const top = await repositoryTop(loaded.run.baseDir);
        const limit = loaded.file.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT;
        stdout(await commitDiff(top, other.commit.head, outcome.commit.head, limit));
      }
      return skipped.exitCode();
    } finally {
      await store.close();
    }
  },
};
