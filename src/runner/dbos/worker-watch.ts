import type pg from "pg";
import { otherVersionLine, waitingOtherVersions } from "./other-versions.js";
import { moveSilentExecutorsTasks, type MovedTask, type ResumeOnQueue } from "./task-moves.js";
import { beat, type WorkerIdentity } from "./worker-heartbeat.js";

/** How many heartbeats a worker writes per lease: two may be lost before it counts as silent. */
export const BEATS_PER_LEASE = 3;

/** What a worker's watch says, and where. */
export interface WatchReports {
  /** Tasks this worker moved back onto the queue from a silent executor. */
  readonly moved: (tasks: readonly MovedTask[]) => void;
  /** One line for stderr: work of another version, or a round that failed. */
  readonly say: (line: string) => void;
}

/** A running watch; `stop` ends it after the rounds in progress. */
export interface WorkerWatch {
  readonly stop: () => Promise<void>;
}

/** Runs `round` now and then every `intervalMs` after the previous one ended, until stopped. */
function every(intervalMs: number, round: () => Promise<void>): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = round().then(next);
    }, intervalMs);
  };
  current = round().then(next);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await current;
  };
}

/**
 * A worker's watch, every lease / BEATS_PER_LEASE: its heartbeat, on a timer of its own so that
 * a slow move never delays it; and the move of silent executors' tasks of its version onto the
 * queue (`moveSilentExecutorsTasks`), then a look for waiting work of other versions, each
 * version said once while it waits. A failure is said once, and the round tried again.
 */
export function watchWorkers(
  pool: pg.Pool,
  self: WorkerIdentity,
  resume: ResumeOnQueue,
  reports: WatchReports,
): WorkerWatch {
  const intervalMs = Math.max(1, Math.floor(self.leaseMs / BEATS_PER_LEASE));
  let lastError = "";
  const guarded = (what: string, round: () => Promise<void>) => async () => {
    try {
      await round();
      lastError = "";
    } catch (error) {
      const message = `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
      if (message !== lastError) reports.say(`worker ${self.executorId}: ${message}`);
      lastError = message;
    }
  };
  let told = new Set<string>();
  const stopBeats = every(
    intervalMs,
    guarded("heartbeat", () => beat(pool, self, false)),
  );
  const stopMoves = every(
    intervalMs,
    guarded("the look for silent workers", async () => {
      const moved = await moveSilentExecutorsTasks(pool, self, resume);
      if (moved.length > 0) reports.moved(moved);
      const waiting = await waitingOtherVersions(pool, self.appVersion);
      for (const entry of waiting) {
        if (!told.has(entry.version)) {
          reports.say(otherVersionLine(self.executorId, self.appVersion, entry));
        }
      }
      told = new Set(waiting.map((entry) => entry.version));
    }),
  );
  return {
    stop: async () => {
      await Promise.all([stopBeats(), stopMoves()]);
    },
  };
}
