import { isOver } from "../../runner/find-runs.js";
import { loadRun, plannedRun, runOver, type LoadedRun } from "../../runner/load-run.js";
import { driveSession } from "../../runner/session.js";
import { latestRun, runOption } from "../../runner/pick-run.js";
import { checkAnswerTasks } from "../../wire/answers-file.js";
import type { LoopPlan } from "../../core/loop/loop-plan.js";
import { parseText } from "../../wire/parse-text.js";
import { redactTaskDocument } from "../../wire/redact-task-document.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";
import type { Command, Print } from "../command.js";
import { storeOf } from "../../runner/store-url.js";
import { stepErrors } from "../../core/loop/effects-of.js";
import { preflightResume } from "../../runner/preflight-resume.js";
import { readTaskDocument, withStepSecrets } from "../../runner/step-secrets.js";
import { EXIT, type GivenAnswers } from "../../runner/session.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage-error.js";
import { parseOptions, type ParsedOptions } from "../parse-options.js";
import { givenAnswers, SESSION_HELP, SESSION_OPTIONS, sessionFlags } from "./run.js";

/**
 * The fixed task file to journal in place of the run's (redacted), when only its steps changed:
 * the loop it describes (tasks, prompts, caps, policies) must be the run's, so every journaled
 * event still folds; anything else is a new run. Its steps must all be able to start (the
 * preflight of `run`), checked here before anything is written, on either store. Undefined when
 * it is the run's already.
 */
function fixedSteps(
  loaded: LoadedRun | Pick<LoadedRun, "run" | "plan" | "file">,
  document: unknown,
  source: string,
): unknown {
  const loop = (plan: LoopPlan) => JSON.stringify(plan.tasks);
  if (loop(planOf(decodeTaskFile(document))) !== loop(loaded.plan)) {
    throw new UsageError(
      `resume: ${source} changes more than the steps of run ${loaded.run.id} (its tasks, prompts, caps or policies); only steps may change on resume: start a new run with loopgate run ${source} --new`,
    );
  }
  // A run that is over (read without its events) runs nothing.
  if ("state" in loaded) preflightResume(loaded, document);
  const redacted = redactTaskDocument(document);
  return JSON.stringify(redacted) === JSON.stringify(loaded.run.document) ? undefined : redacted;
}

/** Says that the run now uses the fixed task file's steps. */
function sayFixed(runId: number, source: string): void {
  process.stderr.write(
    `loopgate: run ${runId} now uses the steps of ${source} (journaled in place of the task file it started with)\n`,
  );
}

/**
 * `resume --store postgres://…`: the run's tasks put back in motion DBOS's way and worked on in
 * this process until no task can move (see `resumeOnPostgres`), printed as `run` prints.
 */
async function resumeOnPostgresStore(
  url: string,
  runOperand: string | undefined,
  fixed: { readonly document: unknown; readonly source: string } | undefined,
  flags: {
    readonly concurrency?: number | undefined;
    readonly json?: boolean | undefined;
    readonly answers?: GivenAnswers | undefined;
  },
  stdout: Print,
): Promise<number> {
  const { openPostgresStore } = await import("../../runner/store/postgres/postgres-run-store.js");
  const { resumeOnPostgres } = await import("../../runner/dbos/resume-on-postgres.js");
  const { dbosWarning, printPostgresResult } = await import("./run-postgres.js");
  const hint = ` --store ${url}`;
  const store = await openPostgresStore(url, hint);
  try {
    const all = await store.read({ run: runOption(runOperand) });
    const runId = runOption(runOperand) ?? latestRun(all);
    let loaded = loadRun(all, runId);
    // Answers for tasks the run does not have change nothing, as on SQLite.
    if (flags.answers !== undefined) {
      checkAnswerTasks(
        flags.answers.byTask,
        loaded.plan.tasks.map((task) => task.id),
      );
    }
    // As on SQLite, a step error's fix is an edit of the run's task file, read again here.
    const onDisk =
      fixed === undefined && stepErrors(loaded.state).length > 0
        ? readTaskDocument(loaded.run.taskFile)
        : undefined;
    const taken =
      fixed ??
      (onDisk === undefined ? undefined : { document: onDisk, source: loaded.run.taskFile });
    const replaced =
      taken === undefined ? undefined : fixedSteps(loaded, taken.document, taken.source);
    if (taken !== undefined && replaced !== undefined) {
      await store.replaceDocument(runId, replaced);
      sayFixed(runId, taken.source);
      loaded = loadRun(await store.read({ run: runId }), runId);
    }
    if (isOver(loaded.state)) {
      stdout(`run ${runId} is over: nothing to resume (see loopgate status${hint})\n`);
      return EXIT.finished;
    }
    // As the SQLite driver does, before any task is put back in motion.
    if (taken === undefined) preflightResume(withStepSecrets(loaded));
    const result = await resumeOnPostgres({
      store,
      loaded,
      document: taken?.document,
      concurrency: flags.concurrency,
      answers: flags.answers,
      say: (line) => process.stderr.write(`loopgate: ${line}\n`),
      warn: dbosWarning,
    });
    return printPostgresResult(result, flags.json === true, stdout);
  } finally {
    await store.close();
  }
}

/** `loopgate resume`: carries a paused or interrupted run on from its journal. */
export const resumeCommand: Command = {
  help: `Usage: loopgate resume [--run ID] [--concurrency N] [--store URL | --db PATH]
                       [--answers FILE] [--quiet] [--json]

Rebuilds the run from its journal and carries it on: after an answer, after
exit code 3, or after a crash (kill -9 included). A step whose result was
journaled is not run again; steps cut off mid-way run again (steps are
at-least-once), once what is left of them is killed. Without --run, resumes
the latest run. A run that is over (every task proceeded, aborted or was
cancelled) has nothing to resume: resume says so and exits 0.

Options:
  --run ID        the run to resume (see loopgate status)
  --task-file F   carry the run on with the steps of F, a fixed copy of its
                  task file (a command, cwd, env or timeout that was wrong):
                  journaled in place of the run's task file. Refused (exit 2)
                  when F changes anything but steps
  --concurrency N tasks at once for this resume only (default: the run's own,
                  as given to loopgate run)
  --store URL     the store: a journal path, sqlite:PATH or
                  postgres://USER@HOST:PORT/DATABASE (default: LOOPGATE_STORE).
                  On PostgreSQL, resume puts back on the task queue what can
                  move (a task paused by a step error, with the task file as
                  it is now; a task whose workflow ended in error or was
                  cancelled; a task held by a run or resume of this host that
                  is gone), leaves a task another worker holds to it, and works
                  on the run here until no task can move
${SESSION_HELP}`,
  async run({ args, stdout }) {
    const { values } = parseOptions("resume", args, RESUME_OPTIONS, 0);
    const flags = sessionFlags("resume", values);
    try {
      return await resumeWith(flags, values, stdout);
    } finally {
      flags.stepLauncher?.close();
    }
  },
};

/** `resume`'s options: the session's, and which run of which store, with which steps. */
const RESUME_OPTIONS = {
  ...SESSION_OPTIONS,
  store: { type: "string" },
  run: { type: "string" },
  "task-file": { type: "string" },
} as const;

/** `resume`'s options as parsed. */
type ResumeValues = ParsedOptions<typeof RESUME_OPTIONS>["values"];

/** `resume` once its flags are read: the step launcher in `flags` is the caller's to close. */
async function resumeWith(
  flags: ReturnType<typeof sessionFlags>,
  values: ResumeValues,
  stdout: Print,
): Promise<number> {
  const answers = await givenAnswers(values.answers, flags.maxInputBytes);
  const given = values["task-file"];
  const fixed =
    given === undefined
      ? undefined
      : parseText((await readInput(given, flags.maxInputBytes)).text, given);
  if (fixed !== undefined) decodeTaskFile(fixed);
  const target = storeOf("resume", values.store, values.db);
  if (target.kind === "postgres") {
    const fixedFile =
      fixed === undefined || given === undefined ? undefined : { document: fixed, source: given };
    return await resumeOnPostgresStore(
      target.url,
      values.run,
      fixedFile,
      { ...flags, answers },
      stdout,
    );
  }
  // A resume with nothing to do, or answers for tasks the run does not have, changes nothing.
  const session = { ...flags, db: target.path, answers, mustExist: true, taskDocument: fixed };
  return await driveSession(session, stdout, (journal, hint) => {
    const runId = runOption(values.run) ?? latestRun(journal);
    const over = runOver(journal, runId);
    // A run with work left is read whole (and any damage found) before anything is written.
    const loaded = over ? plannedRun(journal, runId) : loadRun(journal, runId);
    const replaced =
      fixed === undefined || given === undefined ? undefined : fixedSteps(loaded, fixed, given);
    if (replaced !== undefined && given !== undefined) {
      journal.replaceDocument(runId, replaced);
      sayFixed(runId, given);
    }
    if (answers !== undefined) {
      checkAnswerTasks(
        answers.byTask,
        loaded.plan.tasks.map((task) => task.id),
      );
    }
    return over
      ? { nothing: `run ${runId} is over: nothing to resume (see loopgate status${hint})\n` }
      : runId;
  });
}
