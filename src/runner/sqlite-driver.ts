import { setTimeout as sleep } from "node:timers/promises";
import { hostname } from "node:os";
import { LoopgateError } from "../core/errors.js";
import { activeTask, effectsOf } from "../core/loop/effects-of.js";
import type { AwaitAnswer, LoopEffect, RunStep } from "../core/loop/loop-effect.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { transition } from "../core/loop/transition.js";
import { stepsOf } from "../wire/task-file.js";
import type { AnswerSource } from "./answer-source.js";
import { DEFAULT_OUTPUT_LIMIT } from "./bounded-output.js";
import { executeStep } from "./execute-step.js";
import type { Journal, JournalEntry } from "./journal.js";
import { Leases } from "./lease.js";
import { loadRun, type LoadedRun } from "./load-run.js";
import type { Progress } from "./progress.js";

/** How often a runner checks a task lease another runner holds. */
const LEASE_POLL_MS = 1_000;

/** What the SQLite driver needs to carry a run forward. */
export interface DriveOptions {
  readonly journal: Journal;
  readonly runId: number;
  readonly answers: AnswerSource;
  readonly progress: Progress;
  /**
   * Test hook for the crash test: SIGKILL this process right after the n-th journal append.
   * Set through `LOOPGATE_CRASH_AFTER_APPENDS`; never set it in production.
   */
  readonly crashAfterAppends?: number;
}

/** Where a drive stopped: the run finished, or a task waits for an answer nobody gave. */
export interface DriveResult {
  readonly state: LoopState;
  readonly paused: AwaitAnswer | null;
}

/** Kills what is left of a step a dead runner started: its result will never be read. */
function killOrphan(entries: readonly JournalEntry[], effectId: string): void {
  const started = entries.findLast(
    (entry) => entry.event.type === "step-started" && entry.event.effectId === effectId,
  );
  const pid = started?.meta?.pid;
  if (typeof pid !== "number" || started?.meta?.host !== hostname()) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * The SQLite driver: folds the run's journal through the pure loop, then carries out each
 * effect and journals the event before applying it. A step is journaled as started and as
 * finished; one cut off in between runs again on resume (at-least-once).
 */
export async function driveRun(options: DriveOptions): Promise<DriveResult> {
  const { journal, runId, progress } = options;
  const leases = new Leases(journal);
  const runScope = `run:${runId}`;
  const taken = leases.acquire(runScope);
  if (!taken.ok) {
    throw new LoopgateError(
      "RUN_BUSY",
      `run ${runId} is being run by pid ${taken.holder.pid} on ${taken.holder.host}`,
    );
  }
  let currentPid: number | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    if (currentPid !== undefined) process.kill(-currentPid, "SIGTERM");
    leases.releaseAll();
    // The journal holds everything so far; `loopgate resume` re-runs the interrupted step.
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    const loaded = loadRun(journal, runId);
    let state = loaded.state;
    let appends = 0;
    const record = (event: LoopEvent, meta: Record<string, unknown> | null = null) => {
      // Applied before it is written, so an event the loop refuses never reaches the journal.
      const next = transition(state, event).state;
      journal.append(runId, event, meta);
      appends += 1;
      if (appends === options.crashAfterAppends) process.kill(process.pid, "SIGKILL");
      state = next;
      progress.recorded(event, state);
    };
    const [first] = effectsOf(state);
    if (first?.kind === "run-step") killOrphan(loaded.entries, first.id);
    for (;;) {
      const [effect] = effectsOf(state);
      if (effect === undefined || effect.kind === "finish") return { state, paused: null };
      switch (effect.kind) {
        case "run-step": {
          await holdTask(leases, effect.taskId, progress);
          if (effect.delayMs > 0) await sleep(effect.delayMs);
          progress.stepStarting(effect, state);
          const outcome = await runStep(loaded, effect, (pid) => {
            currentPid = pid;
            record(
              { type: "step-started", ...eventBase(effect), step: effect.step },
              { pid, host: hostname() },
            );
          });
          currentPid = undefined;
          record({ type: "step-finished", ...eventBase(effect), outcome });
          break;
        }
        case "record-decision":
          record({
            type: "decision-recorded",
            ...eventBase(effect),
            input: effect.input,
            decision: effect.decision,
          });
          if (effect.decision.action === "proceed" || effect.decision.action === "abort") {
            leases.release(`task:${effect.taskId}`);
          }
          break;
        case "await-answer": {
          const task = activeTask(state);
          const given = task === undefined ? null : await options.answers(effect, task);
          if (given === null) return { state, paused: effect };
          record(
            { type: "answer-given", ...eventBase(effect), answer: given.answer },
            { source: given.source },
          );
          break;
        }
      }
    }
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    leases.releaseAll();
  }
}

/** The fields an event shares with the effect it carries out. */
function eventBase(effect: Exclude<LoopEffect, { kind: "finish" }>) {
  return { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
}

/** Waits until no other runner holds the task. */
async function holdTask(leases: Leases, taskId: string, progress: Progress): Promise<void> {
  for (let told = false; ; told = true) {
    const taken = leases.acquire(`task:${taskId}`);
    if (taken.ok) return;
    if (!told) {
      progress.notice(
        `task ${taskId} is being run by pid ${taken.holder.pid} on ${taken.holder.host}; waiting`,
      );
    }
    await sleep(LEASE_POLL_MS);
  }
}

/** Runs a step as the task file describes it. */
function runStep(loaded: LoadedRun, effect: RunStep, onSpawn: (pid: number) => void) {
  const entry = loaded.file.tasks.find((task) => task.id === effect.taskId);
  const spec = entry === undefined ? undefined : stepsOf(loaded.file, entry)[effect.step];
  if (spec === undefined) {
    throw new LoopgateError("INVALID_EVENT", `task ${effect.taskId} has no ${effect.step} step`);
  }
  return executeStep(effect, spec, {
    runDir: loaded.runDir,
    baseDir: loaded.run.baseDir,
    outputLimit: loaded.file.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT,
    onSpawn,
  });
}
