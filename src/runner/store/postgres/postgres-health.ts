import { applicationVersion } from "../../dbos/application-version.js";
import { LOOPGATE_SCHEMA_VERSION } from "../../dbos/loopgate-schema.js";
import { waitingOtherVersions } from "../../dbos/other-versions.js";
import type { PostgresJournal } from "../../dbos/postgres-journal.js";
import { SILENT_OWNER } from "../../dbos/task-moves.js";
import { TASK_WORKFLOW } from "../../dbos/task-workflow.js";
import { isDamage, loadRun } from "../../load-run.js";
import type { StoreHealth } from "../run-store.js";
import { PostgresSnapshot } from "./postgres-snapshot.js";

/** A worker's row as `doctor` tells it. */
interface WorkerState {
  readonly executor: string;
  readonly state: "live" | "silent" | "stopped";
  readonly silentMs: number;
}

/** The executors that ever beat, each live (a heartbeat within its lease), silent or stopped. */
async function workersOf(journal: PostgresJournal): Promise<WorkerState[]> {
  const found = await journal.pool.query<{
    executor_id: string;
    stopped: boolean;
    silent_ms: number;
    lease_ms: number;
  }>(
    `SELECT executor_id, stopped_at IS NOT NULL AS stopped, lease_ms,
            (extract(epoch FROM clock_timestamp() - heartbeat_at) * 1000)::float8 AS silent_ms
       FROM loopgate.workers ORDER BY executor_id`,
  );
  return found.rows.map((row) => ({
    executor: row.executor_id,
    state: row.stopped ? "stopped" : row.silent_ms < row.lease_ms ? "live" : "silent",
    silentMs: Math.round(row.silent_ms),
  }));
}

/** How many task workflows DBOS has in each state, and how many a silent executor holds. */
async function workflowsOf(
  journal: PostgresJournal,
): Promise<{ byStatus: Record<string, number>; heldBySilent: number }> {
  const found = await journal.pool.query<{ status: string; silent: boolean; n: string }>(
    `SELECT w.status, (w.status = 'PENDING' AND ${SILENT_OWNER}) AS silent, count(*) AS n
       FROM dbos.workflow_status w WHERE w.name = $1 GROUP BY 1, 2 ORDER BY 1`,
    [TASK_WORKFLOW],
  );
  const byStatus: Record<string, number> = {};
  let heldBySilent = 0;
  for (const row of found.rows) {
    byStatus[row.status] = (byStatus[row.status] ?? 0) + Number(row.n);
    if (row.silent) heldBySilent += Number(row.n);
  }
  return { byStatus, heldBySilent };
}

/**
 * The tasks whose story has a hole: their events are keyed by place (0, 1, …), so a task with
 * fewer events than its last place lost one.
 */
async function holes(journal: PostgresJournal): Promise<string[]> {
  const found = await journal.pool.query<{
    run_id: string;
    task_id: string;
    n: string;
    top: number;
  }>(
    `SELECT run_id, task_id, count(*) AS n, max(task_seq) AS top FROM loopgate.events
      GROUP BY 1, 2 HAVING count(*) <> max(task_seq) + 1 OR min(task_seq) <> 0 ORDER BY 1, 2`,
  );
  return found.rows.map(
    (row) =>
      `run ${row.run_id} is damaged: task ${JSON.stringify(row.task_id)} has ${row.n} events, its last at place ${row.top}`,
  );
}

/** Every run folded through the loop, from one read of the whole store: why each that does not fold. */
async function unfolding(journal: PostgresJournal, path: string): Promise<string[]> {
  const runs = await journal.runs();
  const ids = runs.map((run) => run.id);
  const snapshot = new PostgresSnapshot(path, runs, ids, await journal.eventsOf(ids), undefined);
  const damaged: string[] = [];
  for (const id of ids) {
    try {
      loadRun(snapshot, id);
    } catch (error) {
      if (!isDamage(error)) throw error;
      damaged.push(error.message);
    }
  }
  return damaged;
}

/** `n thing(s)`. */
function counted(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? "" : "s"}`;
}

/**
 * A PostgreSQL store's health, read without changing it: the server, loopgate's schema, the
 * workers' heartbeats, DBOS's task workflows (those a silent executor holds, those of another
 * application version no worker of this one takes), every task's story whole, and every run
 * folded through the loop. Only holes and runs that do not fold are damage; work waiting on a
 * silent executor or another version is said, for the operator to act on.
 */
export async function postgresHealth(journal: PostgresJournal, path: string): Promise<StoreHealth> {
  const server = await journal.pool.query<{ server_version: string }>("SHOW server_version");
  const runs = await journal.pool.query<{ n: string }>("SELECT count(*) AS n FROM loopgate.runs");
  const events = await journal.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM loopgate.events",
  );
  const workers = await workersOf(journal);
  const workflows = await workflowsOf(journal);
  const version = applicationVersion();
  const otherVersions = await waitingOtherVersions(journal.pool, version);
  const damaged = [...(await holes(journal)), ...(await unfolding(journal, path))];
  const named = (state: WorkerState["state"]) => workers.filter((w) => w.state === state);
  const live = named("live");
  const silent = named("silent");
  const good = damaged.length === 0;
  const findings: [string, string][] = [
    ["store", path],
    ["server", `PostgreSQL ${server.rows[0]?.server_version ?? "?"}`],
    ["schema", `loopgate ${LOOPGATE_SCHEMA_VERSION} (this loopgate's), DBOS's system schema dbos`],
    ["runs", String(Number(runs.rows[0]?.n ?? 0))],
    ["events", String(Number(events.rows[0]?.n ?? 0))],
    [
      "workers",
      [
        `${live.length} live${live.length === 0 ? "" : ` (${live.map((w) => w.executor).join(", ")})`}`,
        `${silent.length} silent${silent.length === 0 ? "" : ` (${silent.map((w) => `${w.executor}, last heartbeat ${(w.silentMs / 1000).toFixed(0)} s ago`).join("; ")})`}`,
        `${named("stopped").length} stopped`,
      ].join(", "),
    ],
    [
      "tasks",
      Object.keys(workflows.byStatus).length === 0
        ? "no task workflows"
        : Object.entries(workflows.byStatus)
            .map(([status, n]) => `${n} ${status}`)
            .join(", "),
    ],
    ...(workflows.heldBySilent === 0
      ? []
      : [
          [
            "waiting",
            `${counted(workflows.heldBySilent, "task")} held by silent executors: a live worker of their version moves them after the lease, or loopgate worker --recover EXECUTOR`,
          ] as [string, string],
        ]),
    ...otherVersions.map((waiting): [string, string] => [
      "version",
      `${counted(waiting.tasks, "task")} of application version ${waiting.version} wait, and this loopgate runs ${version}: start a worker of ${waiting.version} (docs/distributed.md#upgrading)`,
    ]),
    ...damaged.map((message): [string, string] => ["damaged", message]),
    [
      "state",
      good
        ? "healthy"
        : "damaged: status, history and export leave out the runs that do not fold, and a damaged run cannot be resumed or answered",
    ],
  ];
  return {
    findings,
    healthy: good,
    data: {
      store: path,
      serverVersion: server.rows[0]?.server_version ?? null,
      schemaVersion: LOOPGATE_SCHEMA_VERSION,
      runs: Number(runs.rows[0]?.n ?? 0),
      events: Number(events.rows[0]?.n ?? 0),
      workers,
      // A list: `--json`'s keys are snake_cased, DBOS's statuses are values.
      workflows: Object.entries(workflows.byStatus).map(([status, tasks]) => ({ status, tasks })),
      heldBySilent: workflows.heldBySilent,
      otherVersions,
      damaged,
      healthy: good,
    },
  };
}
