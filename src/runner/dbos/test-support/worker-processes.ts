import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { ROOT } from "../../test-support/built-cli.js";

const BIN = join(ROOT, "bin", "loopgate.js");

/** A `loopgate worker` process of a test, and what it said on stderr so far. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly stderr: () => string;
}

/** A test's worker processes: started on a store, stopped, or all killed at the end. */
export class WorkerProcesses {
  private readonly all: ChildProcess[] = [];

  constructor(private readonly url: () => string) {}

  /**
   * Starts `loopgate worker --executor EXECUTOR …` and waits until it says it works; its steps
   * see `TEST_WORKER=EXECUTOR`.
   */
  start(executor: string, args: readonly string[] = []): Promise<WorkerProcess> {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [BIN, "worker", "--store", this.url(), "--executor", executor, ...args],
        // A step can tell which worker runs it.
        { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, TEST_WORKER: executor } },
      );
      this.all.push(child);
      let said = "";
      const worker = { child, stderr: () => said };
      child.stderr.setEncoding("utf8").on("data", (text: string) => {
        said += text;
        if (said.includes("working on")) resolve(worker);
      });
      child.on("exit", (code) => reject(new Error(`worker ${executor} exited ${code}: ${said}`)));
    });
  }

  /** Sends `signal` and waits for the exit code. */
  stop(worker: WorkerProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    return new Promise((resolve) => {
      worker.child.on("exit", (code) => resolve(code));
      worker.child.kill(signal);
    });
  }

  /** Kills every worker still running. */
  killAll(): void {
    for (const child of this.all) if (child.exitCode === null) child.kill("SIGKILL");
  }
}

/** A task workflow's row in DBOS's table. */
export interface TaskRow {
  readonly workflow_uuid: string;
  readonly status: string;
  readonly executor_id: string;
}

/** The run's task workflows as DBOS has them now. */
export async function taskRows(db: pg.Client, runId: number): Promise<TaskRow[]> {
  return (
    await db.query<TaskRow>(
      "SELECT workflow_uuid, status, executor_id FROM dbos.workflow_status WHERE workflow_uuid LIKE $1 ORDER BY workflow_uuid",
      [`loopgate-run-${runId}-task-%`],
    )
  ).rows;
}

/** A work workflow's row in DBOS's table, if there is one of that id. */
export async function workRow(db: pg.Client, workflowId: string): Promise<TaskRow | undefined> {
  return (
    await db.query<TaskRow>(
      "SELECT workflow_uuid, status, executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1",
      [workflowId],
    )
  ).rows[0];
}

/** Waits (30 s at most) until `check` holds of the run's task workflows; returns them. */
export async function untilTasks(
  db: pg.Client,
  runId: number,
  check: (rows: TaskRow[]) => boolean,
): Promise<TaskRow[]> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(50)) {
    const rows = await taskRows(db, runId);
    if (check(rows)) return rows;
  }
  throw new Error(
    `run ${runId}'s tasks never got there: ${JSON.stringify(await taskRows(db, runId))}`,
  );
}

/** Waits until every one of the run's `tasks` task workflows has succeeded. */
export function finished(db: pg.Client, runId: number, tasks: number): Promise<TaskRow[]> {
  return untilTasks(
    db,
    runId,
    (rows) => rows.length === tasks && rows.every((row) => row.status === "SUCCESS"),
  );
}

/** Waits (30 s at most) until `exists` says so; `what` names it in the error. */
export async function untilFile(exists: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !exists(); await sleep(25)) {
    if (Date.now() > deadline) throw new Error(`${what} never happened`);
  }
}

/** The event types of a task whose one pass (generate, test) paused it and whose answer ended it. */
export const ANSWERED_PASS = [
  "step-started",
  "step-finished",
  "step-started",
  "step-finished",
  "decision-recorded",
  "answer-given",
  "decision-recorded",
];
