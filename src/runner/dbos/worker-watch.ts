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
  /** One line for stderr: work of another version, or a heartbeat that failed. */
  readonly say: (line: string) => void;
}

/** A running watch; `stop` ends it after the round in progress. */
export interface WorkerWatch {
  readonly stop: () => Promise<void>;
}

/**
 * A worker's watch, every lease / BEATS_PER_LEASE: its heartbeat, then the move of silent
 * executors' tasks of its version onto the queue (`moveSilentExecutorsTasks`), then a look for
 * waiting work of other versions, each said once. A failed round is said once and tried again.
 */
export function watchWorkers(
  pool: pg.Pool,
  self: WorkerIdentity,
  resume: ResumeOnQueue,
  reports: WatchReports,
): WorkerWatch {
  const intervalMs = Math.max(1, Math.floor(self.leaseMs / BEATS_PER_LEASE));
  const told = new Set<string>();
  let lastError = "";
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const once = async () => {
    try {
      await beat(pool, self, false);
      const moved = await moveSilentExecutorsTasks(pool, self, resume);
      if (moved.length > 0) reports.moved(moved);
      const waiting = await waitingOtherVersions(pool, self.appVersion);
      for (const entry of waiting) {
        if (!told.has(entry.version))
          reports.say(otherVersionLine(self.executorId, self.appVersion, entry));
      }
      told.clear();
      for (const entry of waiting) told.add(entry.version);
      lastError = "";
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastError)
        reports.say(`worker ${self.executorId}: heartbeat failed: ${message}`);
      lastError = message;
    }
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = once().then(next);
    }, intervalMs);
  };
  round = once().then(next);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
