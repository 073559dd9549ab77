import { createHash } from "node:crypto";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DBOS, DBOSClient, type DLogger } from "@dbos-inc/dbos-sdk";
import { wfQueueRunner } from "@dbos-inc/dbos-sdk/internal/wfqueue";
import pg from "pg";
import { awaitedAnswers, effectsOf, stepErrors } from "../../core/loop/effects-of.js";
import type { AwaitAnswer } from "../../core/loop/loop-effect.js";
import type { LoopPlan } from "../../core/loop/loop-plan.js";
import { decodeTaskFile, planOf } from "../../wire/task-file.js";
import type { DriveResult } from "../sqlite-driver.js";
import { noteDbosShutdown } from "./dbos-shutdown.js";
import { connect } from "./postgres-connection.js";
import { applicationVersion } from "./application-version.js";
import { queuePollingFrom } from "./queue-polling.js";
import { wholeRunState } from "./whole-run-state.js";
import { PostgresJournal } from "./postgres-journal.js";
import { StepGate } from "./step-gate.js";
import {
  handBackTasks,
  moveExecutorTasks,
  type MovedTask,
  type ResumeOnQueue,
} from "./task-moves.js";
import {
  registerTaskWorkflow,
  STATUS_EVENT,
  TASK_WORKFLOW,
  taskWorkflowId,
  type TaskStatus,
} from "./task-workflow.js";
import { TASK_QUEUE, WORK_QUEUE, WORK_QUEUE_SETTINGS, workQueueOf } from "./queues.js";
import { beat, sayStopped, workerRow } from "./worker-heartbeat.js";
import { watchWorkers } from "./worker-watch.js";
import { postgresStoreName } from "../notify/store-name.js";

/** The DBOS application every loopgate process of a store belongs to. */
export const APPLICATION = "loopgate";

/** How often `run` reads the journal to see whether its run can still move. */
const SETTLE_POLL_MS = 200;
/** How long a worker may be silent before live workers take its tasks, unless told. */
export const DEFAULT_LEASE_MS = 30_000;
/** How long a cut-off step gets to end after SIGKILL before its worker hands it back anyway. */
const CUT_OFF_WAIT_MS = 3_000;
/**
 * How long `run` waits for its paused tasks to tell their pauses: the default delivery bounds
 * (three webhook attempts of 10 s, with backoff between them) with room to spare.
 */
const PAUSE_TOLD_WAIT_MS = 120_000;

/** What a process that works on a PostgreSQL store's tasks needs. */
export interface WorkerOptions {
  readonly url: string;
  /** This process's executor id: stable across restarts, so a restart recovers its own work. */
  readonly executorId: string;
  /** Steps at once in this process; 1 when absent. */
  readonly concurrency?: number | undefined;
  /** How long this process may be silent before live workers take its tasks. */
  readonly leaseMs?: number | undefined;
  /** Task files as read in this process, secrets and all, by run. */
  readonly documents?: ReadonlyMap<number, unknown>;
  /** Where DBOS's warnings and errors go. */
  readonly warn: (line: string) => void;
  /** Where the worker's notes go (tasks it moved from a silent executor); nowhere when absent. */
  readonly note?: (line: string) => void;
}

/** A PostgreSQL store's journal, its pool and how to close both. */
export interface OpenStore {
  readonly journal: PostgresJournal;
  readonly close: () => Promise<void>;
}

/** How a worker's stop went. */
export interface WorkerStop {
  /** Steps still running when the grace ran out: killed, and run again on another worker. */
  readonly cutOff: number;
  /** Tasks handed back to the queue (paused ones, those the stop parked). */
  readonly handedBack: number;
}

/** A launched DBOS worker: the task workflow as registered, and its stop. */
export interface LaunchedWorker {
  readonly workflow: (runId: number, taskId: string) => Promise<unknown>;
  /**
   * Stops taking work, lets the steps in flight finish for up to `graceMs` (then cuts them off),
   * hands back to the queue what this executor still holds, and shuts DBOS down.
   */
  readonly stop: (graceMs: number) => Promise<WorkerStop>;
}

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
  /** Answers the run's paused tasks when none can move (see `WorkOptions.answer`). */
  readonly answer?: WorkOptions["answer"];
}

/** Where a run on PostgreSQL stopped, with its id. */
export interface PostgresRunResult extends DriveResult {
  readonly runId: number;
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
export function quietPgWarning(): void {
  const emit = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (text.startsWith(PG_BUSY_CLIENT_WARNING)) return;
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}

/**
 * Opens a PostgreSQL store `db migrate` prepared; a server that cannot be reached or a database
 * without loopgate's tables is a usage error.
 */
export async function openStore(url: string): Promise<OpenStore> {
  await (await connect(url)).end();
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  pool.on("error", () => undefined);
  const journal = new PostgresJournal(pool, url);
  try {
    await journal.checkSchema();
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { journal, close: () => pool.end() };
}

/** A message of an error, for one line. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The line a worker says when it moved tasks to the queue. */
function movedLine(executorId: string, moved: readonly MovedTask[]): string {
  const from = [...new Set(moved.map((task) => task.executorId))].join(", ");
  const ids = moved.map((task) => task.workflowId).join(", ");
  return `worker ${executorId}: moved ${moved.length} task${moved.length === 1 ? "" : "s"} of silent executor ${from} to the task queue: ${ids}`;
}

/**
 * Launches DBOS in this process as a worker of the store: the task workflow registered, the
 * executor id and application version pinned, taking work from the task queue only. Its first
 * heartbeat comes before the launch, in which DBOS recovers the workflows this executor id left
 * unfinished (a restart after a crash); then it beats every lease / 3 and moves the tasks of
 * silent executors of its version onto the queue (see `watchWorkers`).
 */
export async function launchWorker(
  journal: PostgresJournal,
  options: WorkerOptions,
): Promise<LaunchedWorker> {
  quietPgWarning();
  let closing = false;
  const key = createHash("sha256").update(options.url).digest("hex").slice(0, 16);
  const gate = new StepGate(options.concurrency ?? 1);
  const workflow = registerTaskWorkflow({
    journal,
    runDir: (id) => join(tmpdir(), `loopgate-pg-${key}`, "runs", String(id)),
    documents: options.documents ?? new Map(),
    gate,
    store: postgresStoreName(options.url),
    warn: options.warn,
  });
  const self = {
    executorId: options.executorId,
    host: hostname(),
    pid: process.pid,
    appVersion: applicationVersion(),
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
  };
  await beat(journal.pool, self, true);
  DBOS.setConfig({
    name: APPLICATION,
    systemDatabaseUrl: options.url,
    executorID: options.executorId,
    applicationVersion: self.appVersion,
    runMigrations: false,
    // No `listenQueues`: a run's own limit has a work queue of its own (see `workQueueOf`), so a
    // worker takes work from every queue of the application.
    logger: dbosLogger(options.warn, () => closing),
  });
  const shutdown = async () => {
    closing = true;
    await DBOS.shutdown();
    noteDbosShutdown();
  };
  try {
    await DBOS.launch();
    // Every worker of one version registers the same limits; a newer version's win.
    const polling = queuePollingFrom(process.env);
    await DBOS.registerQueue(TASK_QUEUE, { onConflict: "update_if_latest_version", ...polling });
    await DBOS.registerQueue(WORK_QUEUE, {
      ...WORK_QUEUE_SETTINGS,
      onConflict: "update_if_latest_version",
      ...polling,
    });
  } catch (error) {
    await shutdown().catch(() => undefined);
    await sayStopped(journal.pool, self.executorId).catch(() => undefined);
    throw error;
  }
  const resume: ResumeOnQueue = async (ids, queueName) => {
    await DBOS.resumeWorkflows([...ids], { queueName });
  };
  const watch = watchWorkers(journal.pool, self, resume, {
    moved: (moved) => options.note?.(movedLine(self.executorId, moved)),
    say: options.warn,
  });
  const stop = async (graceMs: number): Promise<WorkerStop> => {
    // DBOS has no public way to stop dequeuing and leave the workflows running here alone.
    wfQueueRunner.stop();
    gate.close();
    let cutOff = 0;
    if (!(await gate.quiet(graceMs))) {
      cutOff = gate.cutOff();
      await gate.quiet(CUT_OFF_WAIT_MS);
    }
    let handedBack: readonly MovedTask[] = [];
    try {
      handedBack = await handBackTasks(journal.pool, self.executorId, resume);
    } catch (error) {
      // Its tasks move anyway once its heartbeat is older than its lease.
      options.warn(`worker ${self.executorId}: could not hand its tasks back: ${messageOf(error)}`);
    }
    await watch.stop();
    await shutdown();
    await sayStopped(journal.pool, self.executorId).catch(() => undefined);
    return { cutOff, handedBack: handedBack.length };
  };
  return { workflow, stop };
}

/** What `worker --recover EXECUTOR` did. */
export type RecoverResult =
  | { readonly kind: "moved"; readonly tasks: readonly MovedTask[] }
  /** The executor still beats within its lease: moving its tasks would run them twice. */
  | {
      readonly kind: "alive";
      readonly silentMs: number;
      readonly leaseMs: number;
      readonly host: string;
      readonly pid: number;
    };

/**
 * `worker --recover EXECUTOR`: moves a silent executor's task workflows back onto the task
 * queue through a `DBOSClient` (no DBOS launch), for any live worker of their version to take.
 */
export async function recoverExecutor(
  journal: PostgresJournal,
  url: string,
  executorId: string,
): Promise<RecoverResult> {
  const row = await workerRow(journal.pool, executorId);
  if (row !== undefined && !row.stopped && row.silentMs < row.leaseMs) {
    const { silentMs, leaseMs, host, pid } = row;
    return { kind: "alive", silentMs, leaseMs, host, pid };
  }
  const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: APPLICATION });
  try {
    const tasks = await moveExecutorTasks(journal.pool, executorId, async (ids, queueName) => {
      await client.resumeWorkflows([...ids], { queueName });
    });
    return { kind: "moved", tasks };
  } finally {
    await client.destroy();
  }
}

/**
 * Stores a run of a task file and enqueues one workflow per task on the task queue, for any
 * worker to take, without launching DBOS here (`run --submit-only`).
 */
export async function submitRun(
  journal: PostgresJournal,
  url: string,
  run: Pick<
    PostgresRunOptions,
    "taskFile" | "baseDir" | "redactedDocument" | "concurrency" | "warn"
  >,
): Promise<number> {
  const runId = await journal.createRun(
    run.taskFile,
    run.baseDir,
    run.redactedDocument,
    run.concurrency,
  );
  const client = await DBOSClient.create({
    systemDatabaseUrl: url,
    applicationName: APPLICATION,
    // Its note of a queue registered would go to stdout, which says what was submitted.
    logger: dbosLogger(run.warn, () => false),
  });
  try {
    const queue = workQueueOf(runId, run.concurrency);
    // A client has no version to compare: the queue's name fixes its settings, so an existing
    // row is kept.
    await client.registerQueue(queue.name, { ...queue.settings, onConflict: "never_update" });
    for (const task of planOf(decodeTaskFile(run.redactedDocument)).tasks) {
      await client.enqueue(
        {
          queueName: TASK_QUEUE,
          workflowName: TASK_WORKFLOW,
          workflowID: taskWorkflowId(runId, task.id),
          appVersion: applicationVersion(),
        },
        runId,
        task.id,
      );
    }
  } finally {
    await client.destroy();
  }
  return runId;
}

/** What `workOnRun` needs besides the run: the store, this process's task files and limits. */
export interface WorkOptions {
  readonly url: string;
  /** The task file as read in this process, secrets and all; the stored one when absent. */
  readonly document?: unknown;
  /** Steps at once in this process; 1 when absent. */
  readonly concurrency?: number | undefined;
  /** Where DBOS's warnings and errors go. */
  readonly warn: (line: string) => void;
  /**
   * Called when no task can move but some wait for an answer (`--answers FILE`): true when it gave
   * one (journaled and sent), and the run goes on; absent or false, the run stops there.
   */
  readonly answer?: ((waiting: PostgresRunResult) => Promise<boolean>) | undefined;
}

/**
 * Launches DBOS in this process with an executor id of its own, has `start` put the run's task
 * workflows in motion, and reads the run's events from the store until no task can move (every
 * task finished, or waiting for an answer or a fixed task file); then shuts DBOS down.
 */
export async function workOnRun(
  journal: PostgresJournal,
  runId: number,
  plan: LoopPlan,
  options: WorkOptions,
  start: (
    workflow: LaunchedWorker["workflow"],
  ) => Promise<readonly { getResult(): Promise<unknown> }[]>,
): Promise<PostgresRunResult> {
  const worker = await launchWorker(journal, {
    url: options.url,
    executorId: `${hostname()}-${process.pid}`,
    concurrency: options.concurrency,
    documents: new Map(options.document === undefined ? [] : [[runId, options.document]]),
    warn: options.warn,
  });
  try {
    const handles = await start(worker.workflow);
    // A workflow that fails stops the run; one that pauses does not end, so the journal says when
    // every task is finished or waiting.
    let failed: { readonly error: unknown } | undefined;
    for (const handle of handles) handle.getResult().catch((error) => (failed ??= { error }));
    const throwIfFailed = () => {
      if (failed !== undefined) throw failed.error;
    };
    for (;;) {
      throwIfFailed();
      const state = await wholeRunState(journal, plan, runId);
      const effects = effectsOf(state);
      const finished = effects[0]?.kind === "finish";
      const waiting = effects.every(
        (effect) => effect.kind === "await-answer" || effect.kind === "resume-step",
      );
      if (finished || waiting) {
        const result = {
          runId,
          state,
          paused: finished ? [] : awaitedAnswers(state),
          errored: finished ? [] : stepErrors(state),
        };
        if (result.paused.length > 0 && (await options.answer?.(result)) === true) continue;
        // The journal tells the end before the workflows have told it: a stop now would cut off
        // their on_pause and on_finish deliveries, and the exit would say nothing of it.
        if (finished) await Promise.allSettled(handles.map((handle) => handle.getResult()));
        else await pausesTold(runId, result.paused, options.warn);
        throwIfFailed();
        return result;
      }
      await sleep(SETTLE_POLL_MS);
    }
  } finally {
    // Its own tasks are finished or wait for a human: what it holds is handed back at once.
    await worker.stop(0);
  }
}

/**
 * Waits until each paused task's workflow says it waits for that answer (its `status` event, set
 * once its pause was told), so the process does not stop while a pause notification is out.
 * A workflow no process carries on within `PAUSE_TOLD_WAIT_MS` is left with a warning: it tells
 * its pause when a worker carries it on.
 */
async function pausesTold(
  runId: number,
  paused: readonly AwaitAnswer[],
  warn: (line: string) => void,
): Promise<void> {
  const deadline = Date.now() + PAUSE_TOLD_WAIT_MS;
  for (const effect of paused) {
    const id = taskWorkflowId(runId, effect.taskId);
    for (;;) {
      const status = await DBOS.getEvent<TaskStatus>(id, STATUS_EVENT, {
        timeoutSeconds: 1,
        pollingIntervalMs: SETTLE_POLL_MS,
      });
      if (status !== null && "awaiting" in status && status.awaiting === effect.id) break;
      if (Date.now() > deadline) {
        warn(
          `run ${runId}: ${effect.taskId}'s pause is not told yet; it is once a worker carries the task on`,
        );
        break;
      }
      await sleep(SETTLE_POLL_MS);
    }
  }
}

/**
 * The first slice of the DBOS driver: submits a run to a PostgreSQL store (`db migrate` made
 * it) and works on it in this process until no task can move (see `workOnRun`). Each task is one
 * DBOS workflow on the task queue (see `registerTaskWorkflow`).
 */
export async function runOnPostgres(options: PostgresRunOptions): Promise<PostgresRunResult> {
  const store = await openStore(options.url);
  const { journal } = store;
  try {
    const runId = await journal.createRun(
      options.taskFile,
      options.baseDir,
      options.redactedDocument,
      options.concurrency,
    );
    const plan = planOf(decodeTaskFile(options.redactedDocument));
    return await workOnRun(journal, runId, plan, options, async (workflow) => {
      const queue = workQueueOf(runId, options.concurrency);
      await DBOS.registerQueue(queue.name, {
        ...queue.settings,
        onConflict: "update_if_latest_version",
      });
      return Promise.all(
        plan.tasks.map((task) =>
          DBOS.startWorkflow(workflow, {
            workflowID: taskWorkflowId(runId, task.id),
            queueName: TASK_QUEUE,
          })(runId, task.id),
        ),
      );
    });
  } finally {
    await store.close();
  }
}
