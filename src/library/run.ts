import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { AwaitAnswer, RunStep } from "../core/loop/loop-effect.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import { runSummary, type TaskSummary } from "../core/loop/run-summary.js";
import { answersFrom, firstAnswer, noAnswers } from "../runner/answer-source.js";
import { sqliteStoreName } from "../runner/notify/store-name.js";
import { Notifier } from "../runner/notify/notifier.js";
import { notifyOnPause } from "../runner/notify/notify-on-pause.js";
import { decodeAnswersFile } from "../wire/answers-file.js";
import { InputError } from "../wire/input-error.js";
import { parseText } from "../wire/parse-text.js";
import { redactTaskDocument } from "../wire/redact-task-document.js";
import { decodeTaskFile } from "../wire/task-file.js";
import { fromLibrary } from "./library-input.js";

/** What `run` reports while it works: a step starts, an event is journaled, a notice or a warning. */
export type RunProgressEvent =
  | { readonly type: "step-starting"; readonly step: RunStep }
  | { readonly type: "recorded"; readonly event: LoopEvent }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "warning"; readonly message: string };

/** Options of `run`. */
export interface RunOptions {
  /** The journal; `.loopgate/journal.db` in the current directory when absent, as for the CLI. */
  readonly db?: string;
  /** Answers given up front, per task id, used in order: `{ "task-003": { option: 2 } }`. */
  readonly answers?: Readonly<Record<string, unknown>>;
  /** Tasks worked on at once (default 1). */
  readonly concurrency?: number;
  /** Told of every step start, journaled event, notice and failed notification. */
  readonly onProgress?: (event: RunProgressEvent) => void;
}

/** Where `run` stopped: every task finished, or some wait for an answer (`loopgate answer`). */
export interface RunResult {
  readonly runId: number;
  readonly status: "finished" | "awaiting-answer";
  readonly tasks: readonly TaskSummary[];
  /** Every task awaiting an answer, with its decision and options; empty when finished. */
  readonly paused: readonly AwaitAnswer[];
}

/**
 * Runs a task file as `loopgate run` does — validated the same way, journaled in the same
 * SQLite journal (so `loopgate status`, `answer` and `resume` take over from here), with the
 * task file's notifications — but reports to `onProgress` instead of printing and never asks on
 * a terminal: a task without an answer in `answers` pauses, and the result lists it.
 */
export async function run(taskFile: string, options: RunOptions = {}): Promise<RunResult> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new InputError("concurrency", `expected a positive integer, got ${String(concurrency)}`);
  }
  const file = resolve(taskFile);
  const document = parseText(readFileSync(file, "utf8"), taskFile);
  decodeTaskFile(document);
  const given =
    options.answers === undefined
      ? undefined
      : fromLibrary({ answers: options.answers }, decodeAnswersFile);
  const tell = options.onProgress ?? (() => undefined);
  // Loaded here, not with the package: the pure API does not need the SQLite addon.
  const [{ DEFAULT_JOURNAL_PATH, Journal }, { driveRun }, { rebuildSummaries }] = await Promise.all(
    [
      import("../runner/journal.js"),
      import("../runner/sqlite-driver.js"),
      import("../runner/rebuild-summaries.js"),
    ],
  );
  const journal = Journal.open(resolve(options.db ?? DEFAULT_JOURNAL_PATH));
  rebuildSummaries(journal);
  const notifier = new Notifier(sqliteStoreName(journal.path), (message) =>
    tell({ type: "warning", message }),
  );
  try {
    const runId = journal.createRun(file, dirname(file), redactTaskDocument(document), concurrency);
    const human = notifyOnPause(noAnswers, notifier);
    const result = await driveRun({
      journal,
      runId,
      answers: given === undefined ? human : firstAnswer(answersFrom(given, "library"), human),
      onLoaded: (loaded) => notifier.configure(loaded),
      taskDocument: document,
      progress: {
        stepStarting: (step) => tell({ type: "step-starting", step }),
        recorded: (event) => tell({ type: "recorded", event }),
        notice: (message) => tell({ type: "notice", message }),
        asking: (question) => question(),
      },
    });
    const tasks = runSummary(result.state);
    if (result.paused.length === 0) notifier.finished(tasks);
    return {
      runId,
      status: result.paused.length === 0 ? "finished" : "awaiting-answer",
      tasks,
      paused: result.paused,
    };
  } finally {
    await notifier.settled();
    journal.close();
  }
}
