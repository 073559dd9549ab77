import { DBOSClient } from "@dbos-inc/dbos-sdk";
import type { AnswerGiven, LoopEvent } from "../../../core/loop/loop-event.js";
import { APPLICATION, openStore, quietPgWarning, type OpenStore } from "../../dbos/dbos-driver.js";
import type { PostgresJournal } from "../../dbos/postgres-journal.js";
import { taskHolders } from "../../dbos/task-holders.js";
import { ANSWER_TOPIC, taskWorkflowId } from "../../dbos/task-workflow.js";
import type { LoadedRun } from "../../load-run.js";
import { printableStoreUrl } from "../../store-url.js";
import type {
  CancelHold,
  ReadScope,
  RunReader,
  RunStore,
  StoreHealth,
  TaskOwner,
} from "../run-store.js";
import { postgresHealth } from "./postgres-health.js";
import { PostgresSnapshot } from "./postgres-snapshot.js";

/**
 * A PostgreSQL store behind the store port: loopgate's tables read and written through
 * `PostgresJournal`, and the task workflows reached through a `DBOSClient` (this process never
 * launches DBOS): answers are sent to them, cancel cancels them, and their rows say who holds
 * each task.
 */
export class PostgresRunStore implements RunStore {
  readonly kind = "postgres";
  private client: Promise<DBOSClient> | undefined;

  constructor(
    private readonly opened: OpenStore,
    readonly url: string,
    readonly hint: string,
  ) {}

  /** The store's URL, password masked. */
  get path(): string {
    return printableStoreUrl(this.url);
  }

  /** loopgate's tables. */
  get journal(): PostgresJournal {
    return this.opened.journal;
  }

  /** The DBOS client of this command, made once when first needed. */
  dbos(): Promise<DBOSClient> {
    this.client ??= DBOSClient.create({
      systemDatabaseUrl: this.url,
      applicationName: APPLICATION,
    });
    return this.client;
  }

  /** Every run's record, and the events of the runs `scope` names, read once. */
  async read(scope: ReadScope): Promise<RunReader> {
    const runs = await this.journal.runs();
    const withTask =
      scope.task === undefined
        ? undefined
        : { taskId: scope.task, runIds: await this.journal.runIdsWithTask(scope.task) };
    const latest = runs.at(-1)?.id;
    const read =
      scope.run !== undefined
        ? [scope.run]
        : withTask !== undefined
          ? [...withTask.runIds, ...(latest === undefined ? [] : [latest])]
          : scope.all === true
            ? runs.map((run) => run.id)
            : latest === undefined
              ? []
              : [latest];
    const ids = [...new Set(read)].filter((id) => runs.some((run) => run.id === id));
    return new PostgresSnapshot(this.path, runs, ids, await this.journal.eventsOf(ids), withTask);
  }

  append(
    runId: number,
    event: LoopEvent,
    meta: Record<string, unknown>,
    place: number,
  ): Promise<boolean> {
    return this.journal.append(runId, place, event, meta);
  }

  /**
   * Sends the answer to the task's workflow, waiting in `DBOS.recv`, then journals it at `place`:
   * the workflow journals the same event there on receipt, so it is kept once, whichever comes
   * first, and every reader sees the task answered at once.
   */
  async give(
    runId: number,
    event: AnswerGiven,
    meta: Record<string, unknown>,
    place: number,
  ): Promise<void> {
    await (await this.dbos()).send(taskWorkflowId(runId, event.taskId), event.answer, ANSWER_TOPIC);
    await this.journal.append(runId, place, event, meta);
  }

  /** The executor id of each of the run's unfinished tasks a worker holds (see `taskHolders`). */
  async owners(runId: number): Promise<ReadonlyMap<string, TaskOwner>> {
    return taskHolders(await this.dbos(), runId);
  }

  /**
   * Cancels the tasks' workflows and their work in flight: their worker starts no further step,
   * a live one included.
   */
  async holdForCancel(loaded: LoadedRun, taskIds: readonly string[]): Promise<CancelHold> {
    const ids = taskIds.map((taskId) => taskWorkflowId(loaded.run.id, taskId));
    await (await this.dbos()).cancelWorkflows(ids, { cancelChildren: true });
    return { kind: "held", release: () => undefined };
  }

  /** The server, schema, workers and task workflows, every story whole and every run folded. */
  health(): Promise<StoreHealth> {
    return postgresHealth(this.journal, this.path);
  }

  replaceDocument(runId: number, document: unknown): Promise<void> {
    return this.journal.replaceDocument(runId, document);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    try {
      if (client !== undefined) await (await client).destroy();
    } finally {
      await this.opened.close();
    }
  }
}

/** The PostgreSQL store at `url`, `db migrate` having prepared it; `hint` reaches it again. */
export async function openPostgresStore(url: string, hint: string): Promise<PostgresRunStore> {
  // The DBOS client makes pg warn as a launched DBOS does.
  quietPgWarning();
  return new PostgresRunStore(await openStore(url), url, hint);
}
