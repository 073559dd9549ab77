import { dirname, resolve } from "node:path";
import { driveSession } from "../../runner/session.js";
import { decodeTaskFile } from "../../wire/task-file.js";
import { parseText } from "../../wire/parse-text.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";

/** Options `run` and `resume` share. */
export const SESSION_OPTIONS = {
  db: { type: "string" },
  answers: { type: "string" },
  quiet: { type: "boolean" },
  json: { type: "boolean" },
} as const;

/** Help lines for the options `run` and `resume` share. */
export const SESSION_HELP = `  --db PATH       the journal (SQLite); default .loopgate/journal.db here
  --answers FILE  answers given up front, per task, used in order:
                    answers: {task-003: {option: 2}}
  --quiet         no progress on stderr
  --json          print the summary as JSON instead of a table

Progress goes to stderr, one line per step result, decision and answer; the final
table (task, outcome, iterations, spend, deciding condition) to stdout. On a
terminal a paused task asks you; elsewhere the run stops with exit code 3.
NO_COLOR is respected.

Exit codes: 0 every task proceeded or ended, 3 a task awaits an answer
(loopgate answer, then loopgate resume), 2 invalid input or arguments,
4 another runner holds the run, 1 internal error.
`;

/** `loopgate run`: the loop over a task file, journaled in SQLite. */
export const runCommand: Command = {
  help: `Usage: loopgate run TASKS_FILE [--db PATH] [--answers FILE] [--quiet] [--json]

Runs each task of TASKS_FILE through generate → test → review → decide until it
proceeds or is aborted: retries hand the feedback to the next generate step,
escalations pause for a human. Every step result, decision and answer is
journaled; after a crash, loopgate resume carries on where the run stopped.
See docs/runner.md for the task file and the step protocol.

Options:
${SESSION_HELP}`,
  async run({ args, stdout }) {
    const { values, positionals } = parseOptions("run", args, SESSION_OPTIONS, 1);
    const file = positionals[0];
    if (file === undefined)
      throw new UsageError("run: missing TASKS_FILE (see loopgate run --help)");
    const input = await readInput(file);
    const document = parseText(input.text, input.source);
    decodeTaskFile(document);
    return await driveSession(values, stdout, (journal) =>
      journal.createRun(resolve(file), dirname(resolve(file)), document),
    );
  },
};
