import { createHash } from "node:crypto";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DBOS, type DLogger } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import { awaitedAnswers, effectsOf, stepErrors } from "../../core/loop/effects-of.js";
import { replay } from "../../core/loop/replay.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";
import { loopgateVersion } from "../loopgate-version.js";
import type { DriveResult } from "../sqlite-driver.js";
import { connect } from "./postgres-connection.js";
import { PostgresJournal } from "./postgres-journal.js";
import { registerTaskWorkflow, taskWorkflowId } from "./task-workflow.js";

/** The DBOS application every loopgate process of a store belongs to. */
const APPLICATION = "loopgate";
/** The queue task workflows are enqueued on and workers take them from. */
export const TASK_QUEUE = "loopgate-tasks";
/** How often `run` reads the journal to see whether its run can still move. */
const SETTLE_POLL_MS = 200;

/** What `run --store postgres://…` needs to submit a run and work on it. */
export interface PostgresRunOptions {
  readonly url: string;
  readonly taskFile: string;
  readonly baseDir: string;
  /** The task file as read, secrets and all: this process's steps get it whole. */
  readonly document: unknown;
  /** The same, redacted: what the store keeps. */
  readonly redactedDocument: unknown;
  /** Steps at once in this process; 1 when absent. */
  readonly concurrency?: number | undefined;
  /** Where DBOS's warnings and errors go. */
  readonly warn: (line: string) => void;
}

/** Where a run on PostgreSQL stopped, with its id. */
export interface PostgresRunResult extends DriveResult {
  readonly runId: number;
}

/** A counting semaphore: `take` waits for one of `size` places and returns its release. */
function places(size: number): () => Promise<() => void> {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) free += 1;
    else next();
  };
  return async () => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    return release;
  };
}

/**
 * DBOS's log as loopgate shows it: its notes dropped, its warnings and errors said on stderr
 * until `closing` says the run is shutting DBOS down (its pollers then report the database they
 * lose as an error).
 */
function dbosLogger(warn: (line: string) => void, closing: () => boolean): DLogger {
  const say = (entry: unknown) => {
    if (!closing()) warn(`dbos: ${String(entry)}`);
  };
  return { info: () => undefined, debug: () => undefined, warn: say, error: say };
}

/** What pg 8.23 warns each time DBOS 5.3 queries a busy client: nothing a user can act on. */
const PG_BUSY_CLIENT_WARNING = "Calling client.query() when the client is already executing";

/** Keeps pg's busy-client deprecation warning (see above) off stderr; every other warning stays. */
function quietPgWarning(): void {
  const emit = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (text.startsWith(PG_BUSY_CLIENT_WARNING)) return;
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}

/**
 * The first slice of the DBOS driver: submits a run to a PostgreSQL store (`db migrate` made
 * it) and works on it in this process until no task can move. Each task is one DBOS workflow on
 * the task queue (see `registerTaskWorkflow`); this process launches DBOS with an executor id of
 * its own and reads the run's events from the store to know when to stop.
 */
export async function runOnPostgres(options: PostgresRunOptions): Promise<PostgresRunResult> {
  await (await connect(options.url)).end();
  const pool = new pg.Pool({ connectionString: options.url, max: 8 });
  pool.on("error", () => undefined);
  const journal = new PostgresJournal(pool, options.url);
  let launched = false;
  let closing = false;
  quietPgWarning();
  try {
    await journal.checkSchema();
    const runId = await journal.createRun(
      options.taskFile,
      options.baseDir,
      options.redactedDocument,
      options.concurrency,
    );
    const key = createHash("sha256").update(options.url).digest("hex").slice(0, 16);
    const workflow = registerTaskWorkflow({
      journal,
      runDir: (id) => join(tmpdir(), `loopgate-pg-${key}`, "runs", String(id)),
      documents: new Map([[runId, options.document]]),
      place: places(options.concurrency ?? 1),
    });
    DBOS.setConfig({
      name: APPLICATION,
      systemDatabaseUrl: options.url,
      executorID: `${hostname()}-${process.pid}`,
      applicationVersion: `loopgate-${loopgateVersion()}`,
      runMigrations: false,
      listenQueues: [TASK_QUEUE],
      logger: dbosLogger(options.warn, () => closing),
    });
    await DBOS.launch();
    launched = true;
    await DBOS.registerQueue(TASK_QUEUE, { onConflict: "never_update" });
    const plan = planOf(decodeTaskFile(options.redactedDocument));
    const handles = await Promise.all(
      plan.tasks.map((task) =>
        DBOS.startWorkflow(workflow, {
          workflowID: taskWorkflowId(runId, task.id),
          queueName: TASK_QUEUE,
        })(runId, task.id),
      ),
    );
    // A workflow that fails stops the run; one that pauses does not end, so the journal says when
    // every task is finished or waiting.
    let failed: { readonly error: unknown } | undefined;
    for (const handle of handles) handle.getResult().catch((error) => (failed ??= { error }));
    const whole = { ...plan, concurrency: plan.tasks.length };
    for (;;) {
      if (failed !== undefined) throw failed.error;
      const state = replay(
        whole,
        (await journal.events(runId)).map((entry) => entry.event),
      );
      const effects = effectsOf(state);
      const finished = effects[0]?.kind === "finish";
      const waiting = effects.every(
        (effect) => effect.kind === "await-answer" || effect.kind === "resume-step",
      );
      if (finished || waiting) {
        return {
          runId,
          state,
          paused: finished ? [] : awaitedAnswers(state),
          errored: finished ? [] : stepErrors(state),
        };
      }
      await sleep(SETTLE_POLL_MS);
    }
  } finally {
    closing = true;
    if (launched) await DBOS.shutdown();
    await pool.end();
  }
}
