import type { EventRead, JournalEntry, RunRecord } from "../../journal.js";
import type { RunReader } from "../run-store.js";

/**
 * Runs of a PostgreSQL store as one command reads them: every run's record, and the events of
 * the runs it read (see `PostgresRunStore.read`). Asking for the events of a run it did not read
 * is a bug of the command's scope, not an empty run.
 */
export class PostgresSnapshot implements RunReader {
  private readonly records: ReadonlyMap<number, RunRecord>;
  private readonly byRun = new Map<number, JournalEntry[]>();

  constructor(
    readonly path: string,
    runs: readonly RunRecord[],
    /** The runs read, each with its events (perhaps none), and their events in append order. */
    read: readonly number[],
    entries: readonly JournalEntry[],
    /** For the task the scope named, the runs that have its events. */
    private readonly withTask:
      { readonly taskId: string; readonly runIds: readonly number[] } | undefined,
  ) {
    this.records = new Map(runs.map((run) => [run.id, run]));
    for (const id of read) this.byRun.set(id, []);
    for (const entry of entries) this.byRun.get(entry.runId)?.push(entry);
  }

  run(id: number): RunRecord | undefined {
    return this.records.get(id);
  }

  runIds(): number[] {
    return [...this.records.keys()];
  }

  runIdsWithTask(taskId: string): number[] {
    if (this.withTask?.taskId !== taskId) throw new Error(`runs of task ${taskId} were not read`);
    return [...this.withTask.runIds];
  }

  events(runId: number, taskId?: string): JournalEntry[] {
    const entries = this.byRun.get(runId);
    if (entries === undefined && !this.records.has(runId)) return [];
    if (entries === undefined) throw new Error(`the events of run ${runId} were not read`);
    return taskId === undefined ? [...entries] : entries.filter((e) => e.event.taskId === taskId);
  }

  /** Every event read (of `runId`, of `taskId`), oldest first; rows loopgate wrote read back whole. */
  readEvents(runId?: number, taskId?: string): EventRead[] {
    const runs = runId === undefined ? [...this.byRun.keys()] : [runId];
    return runs
      .flatMap((id) => this.events(id, taskId))
      .sort((a, b) => a.seq - b.seq)
      .map((entry) => ({ ok: true, entry }));
  }
}
