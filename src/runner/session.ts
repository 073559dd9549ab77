import { userInfo } from "node:os";
import type { StepLauncher } from "./step-launcher.js";
import { LoopgateError } from "../core/errors.js";
import type { AwaitAnswer, ResumeStep } from "../core/loop/loop-effect.js";
import { STEP_ERROR } from "../core/loop/step-error.js";
import { runSummary } from "../core/loop/run-summary.js";
import { printable } from "../core/printable.js";
import type { AnswersByTask } from "../wire/answers-file.js";
import { toWire } from "../wire/codec.js";
import { answersFrom, firstAnswer, noAnswers, type AnswerSource } from "./answer-source.js";
import { Interrupted } from "./interrupted.js";
import { rebuildSummaries } from "./rebuild-summaries.js";
import { Journal } from "./journal.js";
import { JournalError } from "./journal-error.js";
import { journalFileExists } from "./journal-file.js";
import { locateJournal } from "./journal-location.js";
import { lineProgress } from "./line-progress.js";
import { paintFor } from "./paint.js";
import { silentProgress } from "./progress.js";
import { driveRun } from "./sqlite-driver.js";
import { sqliteStoreName } from "./notify/store-name.js";
import { Notifier } from "./notify/notifier.js";
import { notifyOnPause } from "./notify/notify-on-pause.js";
import { summaryTable } from "./summary-table.js";
import { optionLines, questionBody, terminalPrompt } from "./terminal-prompt.js";
import { crashPointsFrom } from "./workspace/crash-points.js";
import { keepHeapSmall } from "./small-heap.js";

/** Exit codes of `run` and `resume`, as documented in docs/runner.md. */
export const EXIT = {
  /** Every task proceeded or ended. */
  finished: 0,
  internalError: 1,
  invalidInput: 2,
  /** Tasks wait for answers and no other task can move: `loopgate answer`, then `loopgate resume`. */
  awaitingAnswer: 3,
  /** Another runner holds the run. */
  busy: 4,
} as const;

/** Answers given up front (`--answers FILE`), read and validated before the journal is opened. */
export interface GivenAnswers {
  readonly byTask: AnswersByTask;
  /** The file they came from, as the journal records each answer's source. */
  readonly source: string;
}

/** How `run` and `resume` carry a run forward and report it. */
export interface SessionOptions {
  readonly answers?: GivenAnswers;
  /** Overrides the run's recorded concurrency for this session. */
  readonly concurrency?: number;
  /** The task file as `run` read it, secrets and all (see `withStepSecrets`). */
  readonly taskDocument?: unknown;
  readonly quiet: boolean;
  readonly json: boolean;
  /** `painted`: the text carries loopgate's colours, its other parts already printable. */
  readonly stdout: (text: string, painted?: boolean) => void;
  /** What hints repeat to reach the journal (` --db PATH`, or ""). */
  readonly hint: string;
  /**
   * The process serving steps, not started or started (see `StepLauncher`); none: in-process.
   * Its creator closes it, also when the session never starts (a refused task file).
   */
  readonly stepLauncher?: StepLauncher;
}

/** An open journal and what hints must repeat to reach it again (see `locateJournal`). */
export interface OpenedJournal {
  readonly journal: Journal;
  readonly hint: string;
}

/**
 * Opens the journal `locateJournal` finds: to `read` (nothing is created or changed) or to
 * `write` (created when missing).
 */
export function openLocatedJournal(
  db: string | undefined,
  access: "read" | "write",
  from: { readonly taskFileDir?: string; readonly mustExist?: boolean } = {},
): OpenedJournal {
  const location = locateJournal(db, from.mustExist === true ? "read" : access, from);
  if (from.mustExist === true && !journalFileExists(location.path)) {
    throw new JournalError(
      "JOURNAL_MISSING",
      `no journal at ${location.path} (loopgate run makes one)`,
    );
  }
  const journal = Journal.open(location.path, { readonly: access === "read" });
  if (access === "write") {
    try {
      rebuildSummaries(journal);
    } catch (error) {
      journal.close();
      throw error;
    }
  }
  return { journal, hint: location.hint };
}

/** The journal `openLocatedJournal` opens, for commands that print no hint. */
export function openJournal(db: string | undefined, access: "read" | "write"): Journal {
  return openLocatedJournal(db, access).journal;
}

/** The name answers are signed with. */
export function whoAmI(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}

/**
 * Answers from `--answers FILE`, then from the terminal when there is one, else none; a task
 * the file does not answer is left to a human, and `on_pause` is told.
 */
function answerSource(given: GivenAnswers | undefined, notifier: Notifier): AnswerSource {
  const sources: AnswerSource[] = [];
  if (given !== undefined) sources.push(answersFrom(given.byTask, given.source));
  const human =
    process.stdin.isTTY && process.stderr.isTTY
      ? terminalPrompt(process.stdin, process.stderr, paintFor(true), whoAmI())
      : noAnswers;
  sources.push(notifyOnPause(human, notifier));
  return firstAnswer(...sources);
}

/** What a paused task asks and offers, for a person reading the terminal or a CI log. */
function pausedQuestion(runId: number, effect: AwaitAnswer): string {
  const options = optionLines(effect).join("\n");
  return `\n${effect.taskId} awaits an answer (run ${runId}, attempt ${effect.iteration}, ${effect.decision.reason}).
${questionBody(effect)}
${options === "" ? "" : `\nOptions:\n${options}\n`}`;
}

/** Every paused task's question, then how to answer them and go on. */
function pausedHint(runId: number, paused: readonly AwaitAnswer[], db: string): string {
  const tasks = paused.map((effect) => effect.taskId);
  const each = tasks.length === 1 ? (tasks[0] ?? "") : "TASK";
  return `${paused.map((effect) => pausedQuestion(runId, effect)).join("")}
Answer${tasks.length === 1 ? "" : ` each of ${tasks.join(", ")}`}, then resume:
  loopgate answer ${each} --option N | --text "…" | --approve | --abort${db}
  loopgate resume${db}
`;
}

/** Each task a step error paused, with the error and the end of the step's output, then how to go on. */
function stepErrorHint(runId: number, errored: readonly ResumeStep[], db: string): string {
  const told = errored.map(({ taskId, iteration, error }) => {
    const tail = error.output.trimEnd().split("\n").slice(-10);
    const output = tail[0] === "" ? "" : `\n${tail.map((line) => `  | ${line}`).join("\n")}`;
    return `\n${taskId} is paused by a step error (run ${runId}, attempt ${iteration}, ${STEP_ERROR}): ${error.message}${output}\n`;
  });
  return `${told.join("")}
Nothing was retried or sent to the agent. Fix the task file, then run the step again:
  loopgate resume${db}
`;
}

/** The session flags `run` and `resume` share, as parsed from the command line. */
export interface SessionFlags {
  readonly db?: string | undefined;
  readonly answers?: GivenAnswers | undefined;
  readonly quiet?: boolean | undefined;
  readonly json?: boolean | undefined;
  /** Tasks worked on at once for this session; the run's own when absent. */
  readonly concurrency?: number | undefined;
  /** The task file as `run` read it, secrets and all (see `withStepSecrets`). */
  readonly taskDocument?: unknown;
  /** `run`'s task file directory: a journal is also looked for above it. */
  readonly taskFileDir?: string | undefined;
  /** The journal must be there already (`resume`): none is created. */
  readonly mustExist?: boolean;
  /** The process serving steps, not started or started (see `StepLauncher`); none: in-process. */
  readonly stepLauncher?: StepLauncher | undefined;
}

/** What `pick` returns when the run has nothing to do: the message saying so (exit 0). */
export interface NothingToDo {
  readonly nothing: string;
}

/**
 * Opens the journal named by the flags, drives the run `pick` chooses in it until it finishes or
 * pauses, and closes the journal whatever happens; returns the exit code.
 */
export async function driveSession(
  flags: SessionFlags,
  stdout: (text: string, painted?: boolean) => void,
  pick: (journal: Journal, hint: string) => number | NothingToDo,
): Promise<number> {
  const { journal, hint } = openLocatedJournal(flags.db, "write", {
    ...(flags.taskFileDir === undefined ? {} : { taskFileDir: flags.taskFileDir }),
    mustExist: flags.mustExist === true,
  });
  try {
    const picked = pick(journal, hint);
    if (typeof picked !== "number") {
      stdout(picked.nothing);
      return EXIT.finished;
    }
    return await continueRun(journal, picked, {
      hint,
      ...(flags.answers === undefined ? {} : { answers: flags.answers }),
      ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
      ...(flags.taskDocument === undefined ? {} : { taskDocument: flags.taskDocument }),
      ...(flags.stepLauncher === undefined ? {} : { stepLauncher: flags.stepLauncher }),
      quiet: flags.quiet === true,
      json: flags.json === true,
      stdout,
    });
  } finally {
    journal.close();
  }
}

/** Drives a run until it finishes or pauses, prints its summary, and returns the exit code. */
async function continueRun(
  journal: Journal,
  runId: number,
  options: SessionOptions,
): Promise<number> {
  keepHeapSmall();
  const stderr = process.stderr;
  const crash = Number(process.env.LOOPGATE_CRASH_AFTER_APPENDS ?? "");
  const crashAtSpawn = Number(process.env.LOOPGATE_CRASH_AFTER_SPAWNS ?? "");
  const notifier = new Notifier(sqliteStoreName(journal.path), (line) =>
    stderr.write(`warning: ${printable(line)}\n`),
  );
  const launcher = options.stepLauncher;
  let result;
  try {
    result = await driveRun({
      ...(launcher === undefined ? {} : { launch: (spec) => launcher.run(spec) }),
      journal,
      runId,
      answers: answerSource(options.answers, notifier),
      onLoaded: (loaded) => notifier.configure(loaded),
      progress: options.quiet
        ? silentProgress
        : lineProgress(
            { write: (text) => stderr.write(text), isTTY: stderr.isTTY, columns: stderr.columns },
            paintFor(stderr.isTTY),
          ),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.taskDocument === undefined ? {} : { taskDocument: options.taskDocument }),
      ...(Number.isInteger(crash) && crash > 0 ? { crashAfterAppends: crash } : {}),
      ...(Number.isInteger(crashAtSpawn) && crashAtSpawn > 0
        ? { crashAfterSpawns: crashAtSpawn }
        : {}),
      crashPoints: crashPointsFrom(process.env),
    });
  } catch (error) {
    if (error instanceof Interrupted) {
      stderr.write(`loopgate: ${error.message}\n`);
      return error.exitCode;
    }
    if (
      LoopgateError.is(error) &&
      (error.code === "RUN_BUSY" || error.code === "JOURNAL_CONFLICT")
    ) {
      stderr.write(`error: ${printable(error.message)}\n`);
      return EXIT.busy;
    }
    throw error;
  } finally {
    await notifier.settled();
  }
  const summary = runSummary(result.state);
  const paused = result.paused;
  const errored = result.errored;
  if (paused.length === 0 && errored.length === 0) notifier.finished(summary);
  if (options.json) {
    const awaiting = paused.map((effect) => ({
      taskId: effect.taskId,
      iteration: effect.iteration,
      decision: effect.decision,
      options: effect.options,
    }));
    options.stdout(
      `${JSON.stringify(
        toWire({
          run: runId,
          status:
            paused.length > 0 ? "awaiting-answer" : errored.length > 0 ? "step-error" : "finished",
          tasks: summary,
          // The first paused task, as before several tasks could pause at once; then all of them.
          awaiting: awaiting[0] ?? null,
          awaitingTasks: awaiting,
          stepErrors: errored.map(({ taskId, iteration, error }) => ({
            taskId,
            iteration,
            reason: STEP_ERROR,
            error,
          })),
        }),
        null,
        2,
      )}\n`,
    );
  } else {
    options.stdout(summaryTable(summary, paintFor(process.stdout.isTTY)), true);
  }
  await notifier.settled();
  if (paused.length === 0 && errored.length === 0) return EXIT.finished;
  if (!options.quiet) {
    const hints = [
      ...(errored.length === 0 ? [] : [stepErrorHint(runId, errored, options.hint)]),
      ...(paused.length === 0 ? [] : [pausedHint(runId, paused, options.hint)]),
    ];
    stderr.write(printable(hints.join("")));
  }
  return EXIT.awaitingAnswer;
}
