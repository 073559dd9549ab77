import { runSummary } from "../../core/loop/run-summary.js";
import { STEP_ERROR } from "../../core/loop/step-error.js";
import { paintFor } from "../../runner/paint.js";
import { EXIT } from "../../runner/session.js";
import { summaryTable } from "../../runner/summary-table.js";
import { workspaceOf } from "../../runner/workspace/workspace-of.js";
import { toWire } from "../../wire/codec.js";
import type { TaskFile } from "../../wire/task-file.js";
import type { Print } from "../command.js";
import type { PostgresRunOptions, PostgresRunResult } from "../../runner/dbos/dbos-driver.js";
import type { GivenAnswers } from "../../runner/session.js";
import { UsageError } from "../usage-error.js";

/** What `run` hands over for a PostgreSQL store. */
export interface PostgresRunRequest {
  readonly url: string;
  readonly taskFile: string;
  readonly taskFileDir: string;
  readonly decoded: TaskFile;
  readonly document: unknown;
  readonly redactedDocument: unknown;
  readonly concurrency: number | undefined;
  /** Answers given up front (`--answers FILE`), checked against the task file's tasks. */
  readonly answers: GivenAnswers | undefined;
  readonly json: boolean;
  readonly submitOnly: boolean;
}

/**
 * `run --store postgres://…`: the DBOS driver's first slice. What it cannot do yet (workspaces)
 * is refused before anything is written. Answers given up front are given to the tasks that
 * pause, as `resume --answers` gives them (see `giveFileAnswers`).
 */
export async function runOnPostgresStore(
  request: PostgresRunRequest,
  stdout: Print,
): Promise<number> {
  if (request.decoded.tasks.some((entry) => workspaceOf(request.decoded, entry) !== undefined)) {
    throw new UsageError(
      "run: workspaces do not run on a PostgreSQL store yet (docs/distributed.md)",
    );
  }
  if (request.answers !== undefined && request.submitOnly) {
    throw new UsageError(
      "run: --answers needs a process that works on the run, not --submit-only: give the answers with loopgate answer",
    );
  }
  // Loaded only for PostgreSQL: a SQLite run never pays for DBOS.
  const { openStore, runOnPostgres, submitRun } = await import("../../runner/dbos/dbos-driver.js");
  if (request.submitOnly) {
    const store = await openStore(request.url);
    try {
      const runId = await submitRun(store.journal, request.url, {
        taskFile: request.taskFile,
        baseDir: request.taskFileDir,
        redactedDocument: request.redactedDocument,
        concurrency: request.concurrency,
        warn: dbosWarning,
      });
      const tasks = request.decoded.tasks.length;
      stdout(
        `submitted run ${runId}: ${tasks} task${tasks === 1 ? "" : "s"} queued for loopgate worker\n`,
      );
      return EXIT.finished;
    } finally {
      await store.close();
    }
  }
  const run = (answer?: PostgresRunOptions["answer"]) =>
    runOnPostgres({
      url: request.url,
      taskFile: request.taskFile,
      baseDir: request.taskFileDir,
      document: request.document,
      redactedDocument: request.redactedDocument,
      concurrency: request.concurrency,
      warn: dbosWarning,
      answer,
    });
  const { answers } = request;
  if (answers === undefined) return printPostgresResult(await run(), request.json, stdout);
  // The answers are given through the store port, as loopgate answer gives them.
  const { openPostgresStore } = await import("../../runner/store/postgres/postgres-run-store.js");
  const { giveFileAnswers } = await import("../../runner/dbos/resume-on-postgres.js");
  const store = await openPostgresStore(request.url, ` --store ${request.url}`);
  try {
    const result = await run(
      async (waiting) => (await giveFileAnswers(store, waiting, answers)) > 0,
    );
    return printPostgresResult(result, request.json, stdout);
  } finally {
    await store.close();
  }
}

/** Says a DBOS warning on stderr. */
export function dbosWarning(line: string): void {
  process.stderr.write(`warning: ${line}\n`);
}

/**
 * Prints where a run on PostgreSQL stopped, as the SQLite driver does (the summary table, or
 * `--json`), with what waits on stderr; returns `run`'s exit code.
 */
export function printPostgresResult(
  result: PostgresRunResult,
  json: boolean,
  stdout: Print,
): number {
  const summary = runSummary(result.state);
  const paused = result.paused.map((effect) => ({
    taskId: effect.taskId,
    iteration: effect.iteration,
    decision: effect.decision,
    options: effect.options,
  }));
  const errored = result.errored.map(({ taskId, iteration, error }) => ({
    taskId,
    iteration,
    reason: STEP_ERROR,
    error,
  }));
  const waiting = paused.length + errored.length > 0;
  if (json) {
    const status =
      paused.length > 0 ? "awaiting-answer" : errored.length > 0 ? "step-error" : "finished";
    stdout(
      `${JSON.stringify(toWire({ run: result.runId, status, tasks: summary, awaitingTasks: paused, stepErrors: errored }), null, 2)}\n`,
    );
  } else {
    stdout(summaryTable(summary, paintFor(process.stdout.isTTY)), true);
  }
  if (waiting) {
    const tasks = [...paused, ...errored].map((task) => task.taskId);
    process.stderr.write(
      `run ${result.runId}: ${tasks.join(", ")} wait${tasks.length === 1 ? "s" : ""} (an answer or a fixed task file): loopgate answer or fix the task file, then loopgate resume --run ${result.runId} --store URL\n`,
    );
  }
  return waiting ? EXIT.awaitingAnswer : EXIT.finished;
}
