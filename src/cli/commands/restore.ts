import type { Command } from "../command.js";
import { UsageError } from "../usage-error.js";
import { answerCommand } from "./answer.js";

/** `loopgate restore TASK N`: `loopgate answer TASK --restore N` by its own name. */
export const restoreCommand: Command = {
  help: `Usage: loopgate restore TASK N [--text "…"] [--stop] [--by NAME] [--run ID]
                        [--store URL | --db PATH]

Answers a paused task with a restore: resets the task's git workspace to
attempt N's commit and continues from it (the next attempt starts there, with
--text as guidance), or with --stop ends the task there (aborted; its branch
holds attempt N). The commit the workspace was at is kept as the tag
loopgate/TASK/attempt-M-COMMIT, so the later attempts stay reachable. The same
as loopgate answer TASK --restore N [--abort]; see docs/workspaces.md. Runs on
a PostgreSQL store have no git workspaces yet, so none of their tasks can be
restored (exit 2).

Exit codes: 0 restored, 2 invalid arguments (no such task, no commit of attempt
N, the task does not await an answer), 5 the run or journal is damaged, 1
internal error.
`,
  async run(context) {
    const [taskId, attempt, ...rest] = context.args;
    if (taskId === undefined || taskId.startsWith("-") || attempt === undefined) {
      throw new UsageError("restore: expects TASK N (see loopgate restore --help)");
    }
    const args = rest.map((arg) => (arg === "--stop" ? "--abort" : arg));
    return await answerCommand.run({ ...context, args: [taskId, "--restore", attempt, ...args] });
  },
};
