import { STEP_LAUNCHER_FLAG, StepLauncher } from "../../runner/step-launcher.js";
import { dirname, resolve } from "node:path";
import { preflight } from "../../runner/preflight.js";
import { checkWorkspaces } from "../../runner/workspace/preflight.js";
import { driveSession, type GivenAnswers, type SessionFlags } from "../../runner/session.js";
import { locateJournal } from "../../runner/journal-location.js";
import { checkAnswerTasks, decodeAnswersFile } from "../../wire/answers-file.js";
import { openRunOf } from "../../runner/find-runs.js";
import type { Journal } from "../../runner/journal.js";
import { decodeTaskFile } from "../../wire/task-file.js";
import { parseText } from "../../wire/parse-text.js";
import { redactTaskDocument } from "../../wire/redact-task-document.js";
import { storeOf } from "../../runner/store-url.js";
import type { Command } from "../command.js";
import { runOnPostgresStore } from "./run-postgres.js";
import { INPUT_LIMIT_HELP, INPUT_LIMIT_OPTION, maxInputBytesOf } from "../input-limit.js";
import { parseOptions, type ParsedOptions } from "../parse-options.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";

/** Options `run` and `resume` share. */
export const SESSION_OPTIONS = {
  db: { type: "string" },
  answers: { type: "string" },
  concurrency: { type: "string" },
  quiet: { type: "boolean" },
  json: { type: "boolean" },
  ...INPUT_LIMIT_OPTION,
} as const;

/** Help lines for the options `run` and `resume` share. */
export const SESSION_HELP = `  --db PATH       the journal (SQLite); default LOOPGATE_DB, else the first
                  .loopgate/journal.db here or above (for run, also above
                  the task file), else a new one here
  --answers FILE  answers given up front, per task, used in order:
                    answers: {task-003: {option: 2}}
  --quiet         no progress on stderr
  --json          print the summary as JSON instead of a table
${INPUT_LIMIT_HELP}

Progress goes to stderr, one line per step result, decision and answer, each
starting with its task; the final table (task, outcome, iterations, spend,
deciding condition) to stdout. On a terminal a paused task asks you (one
question at a time); elsewhere it stays paused while the other tasks go on, and
the run stops with exit code 3 once no task can move. NO_COLOR is respected.

Exit codes: 0 every task proceeded or ended, 3 tasks await answers
(loopgate answer, then loopgate resume) or are paused by a step error (fix the
task file, then loopgate resume), 2 invalid input or arguments (a step whose
program or cwd is missing, and a --db that is not a journal loopgate can use,
included; nothing runs), 4 another runner holds
the run, 5 the journal is damaged or changed under the runner (see loopgate
doctor), 1 internal error.
`;

/** `--concurrency N` as a number of tasks; a usage error unless it is a positive integer. */
export function concurrencyOption(command: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const places = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(places) || places < 1) {
    throw new UsageError(
      `${command}: --concurrency expects a positive integer (tasks at once), got ${JSON.stringify(value)}`,
    );
  }
  return places;
}

/** The session flags as parsed, `--concurrency` and `--max-input-bytes` checked. */
export function sessionFlags(
  command: string,
  values: ParsedOptions<typeof SESSION_OPTIONS>["values"],
): SessionFlags & { readonly maxInputBytes: number } {
  const concurrency = concurrencyOption(command, values.concurrency);
  const maxInputBytes = maxInputBytesOf(command, values["max-input-bytes"]);
  // Steps are spawned by this very CLI in its launcher mode (see StepLauncher).
  const script = process.argv[1];
  const stepLauncher =
    script === undefined ? undefined : new StepLauncher([script, STEP_LAUNCHER_FLAG]);
  return { ...values, concurrency, maxInputBytes, answers: undefined, stepLauncher };
}

/**
 * The `--answers` file read and validated; run and resume read it before the journal is
 * opened, so that a bad one leaves no trace there.
 */
export async function givenAnswers(
  file: string | undefined,
  limit: number,
): Promise<GivenAnswers | undefined> {
  if (file === undefined) return undefined;
  const input = await readInput(file, limit);
  return { byTask: decodeAnswersFile(parseText(input.text, input.source)), source: input.source };
}

/**
 * Refuses a second run of a task file whose latest run is paused or unfinished: starting over
 * would silently begin at attempt 1 beside it. The message says how to carry the old one on.
 */
function refuseOpenRun(journal: Journal, taskFile: string, hint: string): void {
  const open = openRunOf(journal, taskFile);
  if (open === undefined) return;
  const paused = open.awaiting;
  const how =
    paused.length > 0
      ? `answer ${paused.join(", ")} (loopgate answer ${paused[0] ?? ""} --option N | --text "…" | --approve | --abort${hint}), then loopgate resume --run ${open.runId}${hint}`
      : `carry it on with loopgate resume --run ${open.runId}${hint}`;
  throw new UsageError(
    `run: run ${open.runId} of ${taskFile} is ${paused.length > 0 ? `awaiting an answer (${paused.join(", ")})` : "unfinished"}: ${how}; or end it with loopgate cancel ${open.runId}${hint}; --new starts another run anyway`,
  );
}

/** `run`'s options: the session's, and how a new run is started and where it is kept. */
const RUN_OPTIONS = {
  ...SESSION_OPTIONS,
  new: { type: "boolean" },
  store: { type: "string" },
  "submit-only": { type: "boolean" },
} as const;

/** `loopgate run`: the loop over a task file, journaled in SQLite. */
export const runCommand: Command = {
  help: `Usage: loopgate run TASKS_FILE [--concurrency N] [--db PATH | --store URL]
                    [--answers FILE] [--quiet] [--json]

Runs each task of TASKS_FILE through generate → test → review → decide until it
proceeds or is aborted: retries hand the feedback to the next generate step,
escalations pause for a human. Every step result, decision and answer is
journaled; after a crash, loopgate resume carries on where the run stopped.
See docs/runner.md for the task file and the step protocol.

Options:
  --concurrency N up to N tasks at once (default 1: one after another); each
                  task's own steps stay in order, tasks start in file order as
                  places free up, and a paused task frees its place (at 1 the
                  run waits for it). Recorded with the run: loopgate resume
                  keeps it. On PostgreSQL: up to N tasks running steps at
                  once across every worker (default: no run-wide limit)
  --new           start a new run even though an earlier run of this task
                  file is paused or unfinished (refused otherwise, exit 2)
  --store URL     a journal path or sqlite:PATH (the same as --db), or
                  postgres://USER@HOST:PORT/DATABASE: the run is kept in
                  PostgreSQL and its tasks run as DBOS workflows (first slice:
                  no workspaces; see docs/distributed.md);
                  default LOOPGATE_STORE
  --submit-only   with a PostgreSQL store: store the run and queue its tasks
                  for loopgate worker, then exit 0 without working on them
${SESSION_HELP}`,
  async run({ args, stdout }) {
    const { values, positionals } = parseOptions("run", args, RUN_OPTIONS, 1);
    const file = positionals[0];
    if (file === undefined)
      throw new UsageError("run: missing TASKS_FILE (see loopgate run --help)");
    const store = storeOf("run", values.store, values.db);
    const flags = {
      ...sessionFlags("run", values),
      db: store.kind === "sqlite" ? store.path : undefined,
    };
    // Several tasks at once fork their steps from the launcher: it starts while this process
    // reads the task file and the journal, instead of after them.
    if (store.kind === "sqlite" && (flags.concurrency ?? 1) > 1) flags.stepLauncher?.start();
    try {
      return await startRun(file, store, flags, values, stdout);
    } finally {
      flags.stepLauncher?.close();
    }
  },
};

/**
 * The task file read, checked and journaled as a new run, then driven (or, on PostgreSQL,
 * submitted); the launcher in `flags` is the caller's to close.
 */
async function startRun(
  file: string,
  store: ReturnType<typeof storeOf>,
  flags: ReturnType<typeof sessionFlags> & { readonly db: string | undefined },
  values: ParsedOptions<typeof RUN_OPTIONS>["values"],
  stdout: (text: string, painted?: boolean) => void,
): Promise<number> {
  const input = await readInput(file, flags.maxInputBytes);
  const document = parseText(input.text, input.source);
  const decoded = decodeTaskFile(document);
  const taskFile = resolve(file);
  const taskFileDir = dirname(taskFile);
  preflight(decoded, taskFileDir);
  if (store.kind !== "postgres" && values["submit-only"] === true) {
    throw new UsageError("run: --submit-only needs a PostgreSQL store (--store postgres://…)");
  }
  const answers = await givenAnswers(values.answers, flags.maxInputBytes);
  if (answers !== undefined) {
    checkAnswerTasks(
      answers.byTask,
      decoded.tasks.map((task) => task.id),
    );
  }
  if (store.kind === "postgres") {
    const request = {
      url: store.url,
      taskFile,
      taskFileDir,
      decoded,
      document,
      redactedDocument: redactTaskDocument(document),
      concurrency: flags.concurrency,
      answers,
      json: values.json === true,
      submitOnly: values["submit-only"] === true,
    };
    return await runOnPostgresStore(request, stdout);
  }
  await checkWorkspaces(
    decoded,
    taskFileDir,
    locateJournal(flags.db, "write", { taskFileDir }).path,
    flags.concurrency ?? 1,
  );
  // The journal keeps the task file redacted; this session's steps get it whole.
  return await driveSession(
    { ...flags, answers, taskDocument: document, taskFileDir },
    stdout,
    (journal, hint) => {
      if (values.new !== true) refuseOpenRun(journal, taskFile, hint);
      return journal.createRun(
        taskFile,
        taskFileDir,
        redactTaskDocument(document),
        flags.concurrency,
      );
    },
  );
}
