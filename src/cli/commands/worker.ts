import { hostname } from "node:os";
import { printableStoreUrl, storeOf } from "../../runner/store-url.js";
import type { Command } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { UsageError } from "../usage-error.js";
import { concurrencyOption } from "./run.js";

/** `loopgate worker`: works on a PostgreSQL store's tasks until told to stop. */
export const workerCommand: Command = {
  help: `Usage: loopgate worker --store postgres://… [--concurrency N] [--executor ID]

Joins the workers of a PostgreSQL store (loopgate db migrate made it) from
this machine: takes tasks from the store's task queue (loopgate run
--submit-only puts them there) and carries them out until stopped with
SIGTERM or Ctrl-C. A step cut off by the stop runs again when the executor
comes back. See docs/distributed.md.

Options:
  --store URL      the store; default LOOPGATE_STORE
  --concurrency N  steps at once in this worker (default 1)
  --executor ID    this worker's executor id (default: the host name); give
                   each worker its own, and the same one again after a
                   restart: a worker that starts recovers the work its id
                   left unfinished

Exit codes: 0 stopped, 2 invalid arguments, a store that is not PostgreSQL,
not migrated or not reachable, 1 internal error.
`,
  async run({ args, stderr }) {
    const { values } = parseOptions(
      "worker",
      args,
      {
        store: { type: "string" },
        concurrency: { type: "string" },
        executor: { type: "string" },
      },
      0,
    );
    const store = storeOf("worker", values.store, undefined);
    if (store.kind !== "postgres") {
      throw new UsageError(
        "worker: needs a PostgreSQL store (--store postgres://… or LOOPGATE_STORE)",
      );
    }
    const concurrency = concurrencyOption("worker", values.concurrency) ?? 1;
    const executorId = values.executor ?? hostname();
    if (executorId.trim() === "") throw new UsageError("worker: --executor must not be empty");
    const { openStore, launchWorker } = await import("../../runner/dbos/dbos-driver.js");
    const opened = await openStore(store.url);
    try {
      const worker = await launchWorker(opened.journal, {
        url: store.url,
        executorId,
        concurrency,
        warn: (line) => stderr(`warning: ${line}\n`),
      });
      stderr(
        `worker ${executorId}: working on ${printableStoreUrl(store.url)} (${concurrency} step${concurrency === 1 ? "" : "s"} at once); stop with SIGTERM or Ctrl-C\n`,
      );
      const signal = await new Promise<string>((resolve) => {
        process.once("SIGTERM", () => resolve("SIGTERM"));
        process.once("SIGINT", () => resolve("SIGINT"));
      });
      await worker.shutdown();
      stderr(`worker ${executorId}: stopped (${signal})\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
