import { hostname } from "node:os";
import { printableStoreUrl, storeOf } from "../../runner/store-url.js";
import type { Command } from "../command.js";
import { durationOption } from "../duration-option.js";
import { parseOptions } from "../parse-options.js";
import { UsageError } from "../usage-error.js";
import { concurrencyOption } from "./run.js";

/** The lease a worker may be given: from 200 ms (tests use short ones) to a day. */
const LEASE_LIMITS = { minMs: 200, maxMs: 86_400_000 } as const;
/** The grace a stop may give steps in flight: up to an hour (a long agent step). */
const GRACE_LIMITS = { minMs: 0, maxMs: 3_600_000 } as const;
/** How long steps in flight get to finish after SIGTERM, unless told. */
const DEFAULT_GRACE_MS = 60_000;

/** `loopgate worker`: works on a PostgreSQL store's tasks until told to stop. */
export const workerCommand: Command = {
  help: `Usage: loopgate worker --store postgres://… [--concurrency N] [--executor ID]
                       [--lease DURATION] [--grace DURATION]
       loopgate worker --recover EXECUTOR --store postgres://…

Joins the workers of a PostgreSQL store (loopgate db migrate made it) from
this machine: takes tasks from the store's task queue (loopgate run
--submit-only puts them there) and carries them out until stopped with
SIGTERM or Ctrl-C. Every worker writes a heartbeat; the tasks of a worker
silent longer than its lease are moved to the queue by a live worker, and
only the step in flight then runs again. See docs/distributed.md.

On SIGTERM or Ctrl-C the worker takes no new work and no new step, lets the
steps in flight finish (for --grace at most; then they are killed and run
again elsewhere), hands the tasks it still holds back to the queue, and
exits 0.

With --recover, moves the tasks of a silent executor (a dead machine) to the
queue at once, without waiting for a live worker to see its lease run out,
and exits; an executor whose heartbeat is younger than its lease is refused.

Options:
  --store URL          the store; default LOOPGATE_STORE
  --concurrency N      steps at once in this worker (default 1)
  --executor ID        this worker's executor id (default: the host name);
                       give each worker its own, and the same one again after
                       a restart: a worker that starts recovers the work its
                       id left unfinished
  --lease DURATION     how long this worker may be silent before its tasks
                       move to another (default 30s; it beats 3 times a lease)
  --grace DURATION     how long steps in flight get on SIGTERM (default 60s)
  --recover EXECUTOR   move EXECUTOR's tasks to the queue, then exit

Exit codes: 0 stopped (or tasks moved), 2 invalid arguments, a store that is
not PostgreSQL, not migrated or not reachable, an executor still alive or
already running, 1 internal error.
`,
  async run({ args, stdout, stderr }) {
    const { values } = parseOptions(
      "worker",
      args,
      {
        store: { type: "string" },
        concurrency: { type: "string" },
        executor: { type: "string" },
        lease: { type: "string" },
        grace: { type: "string" },
        recover: { type: "string" },
      },
      0,
    );
    const store = storeOf("worker", values.store, undefined);
    if (store.kind !== "postgres") {
      throw new UsageError(
        "worker: needs a PostgreSQL store (--store postgres://… or LOOPGATE_STORE)",
      );
    }
    if (values.recover !== undefined) {
      const extra = (["concurrency", "executor", "lease", "grace"] as const).find(
        (flag) => values[flag] !== undefined,
      );
      if (extra !== undefined) {
        throw new UsageError(
          `worker: --recover moves tasks and exits: --${extra} has no use with it`,
        );
      }
      if (values.recover.trim() === "")
        throw new UsageError("worker: --recover must name an executor");
      return recover(store.url, values.recover, stdout);
    }
    const concurrency = concurrencyOption("worker", values.concurrency) ?? 1;
    const executorId = values.executor ?? hostname();
    if (executorId.trim() === "") throw new UsageError("worker: --executor must not be empty");
    const leaseMs =
      values.lease === undefined
        ? undefined
        : durationOption("worker", "lease", values.lease, LEASE_LIMITS);
    const graceMs =
      values.grace === undefined
        ? DEFAULT_GRACE_MS
        : durationOption("worker", "grace", values.grace, GRACE_LIMITS);
    const { openStore, launchWorker } = await import("../../runner/dbos/dbos-driver.js");
    const opened = await openStore(store.url);
    try {
      const say = (line: string) => stderr(`${line}\n`);
      const worker = await launchWorker(opened.journal, {
        url: store.url,
        executorId,
        concurrency,
        leaseMs,
        warn: (line) => say(`warning: ${line}`),
        note: say,
      });
      say(
        `worker ${executorId}: working on ${printableStoreUrl(store.url)} (${concurrency} step${concurrency === 1 ? "" : "s"} at once); stop with SIGTERM or Ctrl-C`,
      );
      const signal = await new Promise<string>((resolve) => {
        process.once("SIGTERM", () => resolve("SIGTERM"));
        process.once("SIGINT", () => resolve("SIGINT"));
      });
      say(`worker ${executorId}: ${signal}: taking no new work; steps in flight may finish`);
      const stopped = await worker.stop(graceMs);
      const cut =
        stopped.cutOff === 0
          ? ""
          : `, ${stopped.cutOff} step${stopped.cutOff === 1 ? "" : "s"} cut off`;
      say(
        `worker ${executorId}: stopped (${signal}${cut}, ${stopped.handedBack} task${stopped.handedBack === 1 ? "" : "s"} handed back to the queue)`,
      );
      return 0;
    } finally {
      await opened.close();
    }
  },
};

/** `worker --recover EXECUTOR`: the move, said on stdout, or why not. */
async function recover(url: string, executorId: string, stdout: (text: string) => void) {
  const { openStore, recoverExecutor } = await import("../../runner/dbos/dbos-driver.js");
  const opened = await openStore(url);
  try {
    const done = await recoverExecutor(opened.journal, url, executorId);
    if (done.kind === "alive") {
      throw new UsageError(
        `worker: executor ${executorId} is alive (pid ${done.pid} on ${done.host}, last heartbeat ${(done.silentMs / 1_000).toFixed(1)} s ago, lease ${done.leaseMs / 1_000} s): stop it, or wait for its lease to run out`,
      );
    }
    const ids = done.tasks.map((task) => task.workflowId);
    stdout(
      `moved ${ids.length} task${ids.length === 1 ? "" : "s"} of executor ${executorId} to the task queue${ids.length === 0 ? "" : `: ${ids.join(", ")}`}\n`,
    );
    return 0;
  } finally {
    await opened.close();
  }
}
