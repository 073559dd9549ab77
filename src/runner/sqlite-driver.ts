import { setTimeout as sleep } from "node:timers/promises";
import { hostname } from "node:os";
import { LoopgateError } from "../core/errors.js";
import {
  awaitedAnswers,
  effectsOf,
  stepErrors,
  taskStateOf,
  type TaskEffect,
} from "../core/loop/effects-of.js";
import type { AwaitAnswer, ResumeStep, RunStep } from "../core/loop/loop-effect.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopState, TaskState } from "../core/loop/loop-state.js";
import { taskBriefOf } from "../core/loop/task-brief.js";
import { applyEvent } from "../core/loop/transition.js";
import { stepsOf, type TaskFile } from "../wire/task-file.js";
import { isHookSessionDocument } from "../hook/hook-session.js";
import type { AnswerSource, SourcedAnswer } from "./answer-source.js";
import { DEFAULT_OUTPUT_LIMIT } from "./bounded-output.js";
import { executeStep, stepRunEvent, type StepContext } from "./execute-step.js";
import type { Journal, JournaledEvent, JournalEntry } from "./journal.js";
import { Leases } from "./lease.js";
import { loadRun, type LoadedRun } from "./load-run.js";
import { Interrupted } from "./interrupted.js";
import { preflightResume, withFixedSteps } from "./preflight-resume.js";
import type { Progress } from "./progress.js";
import { killOrphanedStep, STEP_OWNER_VARIABLE, type RunningStep } from "./step-processes.js";
import { withStepSecrets } from "./step-secrets.js";
import { stepHeadroom, type StepHeadroom } from "./step-headroom.js";
import { StepFiles } from "./step-files.js";
import { Workspaces } from "./workspace/workspaces.js";
import type { CrashPoints } from "./workspace/crash-points.js";
import { withOptionRestore } from "./workspace/restore-of.js";

/** How often a runner checks a task lease another runner holds. */
const LEASE_POLL_MS = 1_000;
/** Grace a step cut short (another task failed, the runner was told to stop) gets between SIGTERM and SIGKILL. */
const STOP_GRACE_MS = 2_000;

/** What the SQLite driver needs to carry a run forward. */
export interface DriveOptions {
  readonly journal: Journal;
  readonly runId: number;
  readonly answers: AnswerSource;
  readonly progress: Progress;
  /** How many tasks to work on at once for this drive; the run's own (`run --concurrency`) when absent. */
  readonly concurrency?: number;
  /** The task file as `run` read it, secrets and all (see `withStepSecrets`). */
  readonly taskDocument?: unknown;
  /** Told the run as loaded, secrets restored, before anything of it runs. */
  readonly onLoaded?: (loaded: LoadedRun) => void;
  /**
   * Test hook for the crash test: SIGKILL this process right after the n-th journal append.
   * Set through `LOOPGATE_CRASH_AFTER_APPENDS`; never set it in production.
   */
  readonly crashAfterAppends?: number;
  /**
   * Test hook for the spawn test: SIGKILL this process right after the n-th step's spawn, before
   * its start is journaled. Set through `LOOPGATE_CRASH_AFTER_SPAWNS`; never set it in production.
   */
  readonly crashAfterSpawns?: number;
  /**
   * Test hooks for the git crash tests: SIGKILL this process around an attempt's commit or in a
   * restore. Set through `LOOPGATE_CRASH_AT_ATTEMPT_COMMIT` and `LOOPGATE_CRASH_AT_RESTORE`;
   * never set them in production.
   */
  readonly crashPoints?: CrashPoints;
  /**
   * What runs each step's command when more than one task runs at once: `runCommand` in this
   * process when absent, and always at a concurrency of 1 (see `StepLauncher`).
   */
  readonly launch?: StepContext["launch"];
}

/** Where a drive stopped: the run finished, or tasks wait for answers nobody gave. */
export interface DriveResult {
  readonly state: LoopState;
  /** Every task awaiting an answer, in file order; empty when the run finished. */
  readonly paused: readonly AwaitAnswer[];
  /** Every task paused by a step error (STEP_ERROR), in file order: fix the task file, resume. */
  readonly errored: readonly ResumeStep[];
}

/**
 * Kills what is left of every step a dead runner started on this host and never saw finish: their
 * results will never be read, and each runs again. Only a step's latest start counts; an earlier
 * one was cut off and killed before. A journaled pid is killed only while it is still that step
 * (killOrphanedStep checks), never because the number came round again.
 */
export function killOrphans(entries: readonly JournalEntry[]): void {
  const latestStart = new Map<string, JournalEntry>();
  for (const entry of entries) {
    const event = entry.event;
    if (event.type === "step-started") latestStart.set(event.effectId, entry);
    else if (event.type === "step-finished") latestStart.delete(event.effectId);
  }
  for (const { event, meta } of latestStart.values()) {
    if (event.type === "step-started" && meta?.host === hostname()) killOrphanedStep(meta, event);
  }
}

/**
 * The SQLite driver: folds the run's journal through the pure loop, then carries out the effects
 * of up to `concurrency` tasks at once — each task's own effects one after another — journaling
 * each event before applying it. A step is journaled as started and as finished; one cut off in
 * between runs again on resume (at-least-once). Answers are asked one at a time; a task nobody
 * answers stays paused while the others go on, and the drive ends when no task can move.
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
  // The processes of the steps running now.
  const steps = new Set<RunningStep>();
  // Once a task fails (a step's bad report line, a journal conflict) or the runner is told to
  // stop, the others stop: their steps are killed and their results, no longer trustworthy, are
  // not journaled; each runs again on resume.
  const stop = new AbortController();
  let failure: { readonly error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort();
    for (const step of steps) {
      step.signal("SIGTERM");
      setTimeout(() => step.signal("SIGKILL"), STOP_GRACE_MS).unref();
    }
  };
  // Once: a second Ctrl-C kills the runner at once, as it would any program.
  const interrupt = (signal: "SIGINT" | "SIGTERM") => fail(new Interrupted(signal));
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    const { launch, workspaces, files, entries, stepsFrom, tasks, start } = startDrive(options);
    // Read once for every step of the drive (see StepContext.env). The owner tag lets the runner
    // that takes over this one's leases after its death find a step it spawned but never journaled.
    const env = { ...process.env, [STEP_OWNER_VARIABLE]: leases.owner };
    let state: LoopState = start;
    const resumable = new Set(stepErrors(state).map((effect) => effect.id));
    let appends = 0;
    let spawns = 0;
    // Group commit: the events recorded in one turn of the event loop — several tasks' steps
    // ending together — are journaled in one transaction at the end of the turn, and what acts
    // on an event waits for the promise `record` returns: the commit that holds it.
    let pending: JournaledEvent[] = [];
    let committing: Promise<void> | undefined;
    const commit = () => {
      committing = undefined;
      const batch = pending;
      pending = [];
      // The crash test's kill falls after its event, wherever that is in the batch.
      const left = (options.crashAfterAppends ?? Infinity) - appends;
      journal.appendAll(runId, left < batch.length ? batch.slice(0, left) : batch);
      appends += Math.min(left, batch.length);
      if (appends === options.crashAfterAppends) process.kill(process.pid, "SIGKILL");
    };
    const record = (event: LoopEvent, meta: Record<string, unknown> | null = null) => {
      // Applied before it is written, so an event the loop refuses never reaches the journal.
      const applied = applyEvent(state, event);
      tasks[applied.position] = applied.task;
      state = { ...state, schedule: applied.schedule };
      // With the state it leads to: the task's summary is written in the event's transaction.
      const plan = state.plan.tasks[applied.position];
      pending.push({ event, meta, brief: () => taskBriefOf(plan, applied.task) });
      committing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(commit);
      workspaces.note(event);
      progress.recorded(event, state);
      return committing;
    };
    // Answers are asked one at a time, so two prompts never share the terminal.
    let asking: Promise<unknown> = Promise.resolve();
    const ask = (effect: AwaitAnswer): Promise<SourcedAnswer | null> => {
      const turn = asking.then(() => {
        const task = taskStateOf(state, effect.taskId);
        if (stop.signal.aborted || task === undefined) return null;
        return progress.asking(() => options.answers(effect, task, stop.signal));
      });
      asking = turn.catch(() => undefined);
      return turn;
    };
    const unanswered = new Set<string>();
    const carryOut = async (effect: TaskEffect): Promise<void> => {
      // An answer asked for an earlier attempt back (journaled first): the reset, done before
      // anything else of the task, is journaled once done, so a drive cut off between the two
      // finishes it here.
      const restoring = workspaces.pendingRestore(effect.taskId);
      if (restoring !== undefined) {
        const restored = await workspaces.restore(effect.taskId, restoring);
        await record({ type: "attempt-restored", ...eventBase(effect), ...restored });
      }
      switch (effect.kind) {
        case "run-step": {
          await holdTask(leases, effect.taskId, progress, stop.signal);
          if (effect.delayMs > 0) await sleep(effect.delayMs, undefined, { signal: stop.signal });
          progress.stepStarting(effect, state);
          let running: RunningStep | undefined;
          const workspace = await workspaces.dirFor(effect.taskId);
          // Where a generate step starts from, so a resume after a kill can tell its commit.
          const head =
            effect.step === "generate" ? await workspaces.headFor(effect.taskId) : undefined;
          const headroom = stepHeadroom(state, effect);
          const ran = await runStep(
            stepsFrom,
            effect,
            {
              entry: entries.get(effect.taskId),
              workspace,
              headroom,
              files,
              env,
              launch,
            },
            (spawned) => {
              spawns += 1;
              if (spawns === options.crashAfterSpawns) process.kill(process.pid, "SIGKILL");
              running = spawned;
              steps.add(spawned);
              // Spawned while another task failed: it is not run now, but on resume.
              if (stop.signal.aborted) {
                spawned.signal("SIGKILL");
                return;
              }
              // A start that cannot be journaled (the journal changed, another runner) stops the
              // drive, which kills the step; thrown here it would be lost inside the spawn. Its
              // commit is not waited for: the step runs meanwhile, and its end waits for a later one.
              try {
                record(
                  { type: "step-started", ...eventBase(effect), step: effect.step },
                  {
                    pid: spawned.pid,
                    host: hostname(),
                    ...spawned.identity,
                    ...(head === undefined ? {} : { head }),
                  },
                ).catch(fail);
              } catch (error) {
                fail(error);
              }
            },
          );
          if (running !== undefined) steps.delete(running);
          if (stop.signal.aborted) return;
          const outcome =
            "error" in ran ? ran : { outcome: await workspaces.afterStep(effect, ran.outcome) };
          journal.checkUnchanged(
            `${effect.taskId}'s ${effect.step} step (attempt ${effect.iteration}) ran`,
            runId,
          );
          await record(stepRunEvent(effect, outcome));
          return;
        }
        case "resume-step":
          // Checked by this session's preflight; a step error of this session waits for the next.
          if (resumable.has(effect.id)) {
            await record({ type: "step-resumed", ...eventBase(effect), step: effect.step });
          }
          return;
        case "record-decision": {
          const action = effect.decision.action;
          const ends = action === "proceed" || action === "abort";
          // Done before the decision is journaled, so a drive cut off between the two does it
          // again (it is idempotent); a conflict is a line, not a failure (on_proceed, on_abort).
          const end = ends ? await workspaces.atEnd(effect.taskId, action) : null;
          await record(
            {
              type: "decision-recorded",
              ...eventBase(effect),
              input: effect.input,
              decision: effect.decision,
            },
            end === null ? null : { workspace: end },
          );
          if (end !== null) progress.notice(`${effect.taskId}: ${end}`);
          // Nothing of an ended task is asked again in this drive: what is kept for it goes.
          if (ends) {
            leases.release(`task:${effect.taskId}`);
            files.forget(effect.taskId);
            workspaces.forget(effect.taskId);
            journal.forgetDecisions(runId, effect.taskId);
          }
          return;
        }
        case "await-answer": {
          const given = await ask(effect);
          if (stop.signal.aborted) return;
          if (given === null) {
            unanswered.add(effect.id);
            return;
          }
          await record(
            {
              type: "answer-given",
              ...eventBase(effect),
              answer: withOptionRestore(given.answer, effect.options),
            },
            { source: given.source },
          );
          return;
        }
      }
    };
    // One piece of work in flight per task: a task's steps, decisions and answers stay in order.
    const working = new Map<string, Promise<void>>();
    for (;;) {
      for (const effect of stop.signal.aborted ? [] : effectsOf(state)) {
        if (effect.kind === "finish" || working.has(effect.taskId) || unanswered.has(effect.id)) {
          continue;
        }
        if (effect.kind === "resume-step" && !resumable.has(effect.id)) continue;
        const work = carryOut(effect)
          .catch(fail)
          .finally(() => working.delete(effect.taskId));
        working.set(effect.taskId, work);
      }
      if (working.size === 0) break;
      await Promise.race(working.values());
    }
    // A step start whose step was stopped is still journaled: resume kills what is left of it.
    await committing?.catch(fail);
    if (failure !== undefined) throw failure.error;
    const finished = effectsOf(state)[0]?.kind === "finish";
    return {
      state,
      paused: finished ? [] : awaitedAnswers(state),
      errored: finished ? [] : stepErrors(state),
    };
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    leases.releaseAll();
  }
}

/** What a drive works with, taken from its run as loaded (see `startDrive`). */
interface DriveStart {
  readonly launch: StepContext["launch"];
  readonly workspaces: Workspaces;
  readonly files: StepFiles;
  /** The task file's entries by id: a run of thousands of tasks looks one up for every step. */
  readonly entries: ReadonlyMap<string, TaskFile["tasks"][number]>;
  readonly stepsFrom: RunOfSteps;
  /** The state the run's journal folds to, its task list `tasks`. */
  readonly start: LoopState;
  /**
   * The driver's own copy of the task list, updated in place at the position each event changes:
   * copying the list for every event (what `transition` does) costs O(tasks) per event.
   */
  readonly tasks: TaskState[];
}

/**
 * Loads the run, checks it can go on and kills what a dead runner left of its steps. Only what
 * the drive needs is returned: the run as loaded (its journal as read, its starting state, its
 * document) is not kept for the whole drive, as it would be as a local of the drive's own frame.
 */
function startDrive(options: DriveOptions): DriveStart {
  const { journal, runId, progress } = options;
  const journaled = loadRun(journal, runId, options.concurrency);
  const fixed = withFixedSteps(journaled);
  if (fixed !== undefined) {
    progress.notice(
      `run ${runId}: steps read again from ${journaled.run.taskFile} (a step error paused it)`,
    );
  }
  const loaded = fixed ?? withStepSecrets(journaled, options.taskDocument);
  // One task at a time, each step waits for the one before: a launcher would only add its
  // hand-offs to every step (see StepLauncher).
  const launch = (loaded.plan.concurrency ?? 1) > 1 ? options.launch : undefined;
  if (isHookSessionDocument(loaded.run.document)) {
    throw new LoopgateError(
      "INVALID_USAGE",
      `run ${runId} is an agent's Stop-hook session: it goes on when the agent stops next (loopgate hook stop), not with resume`,
    );
  }
  options.onLoaded?.(loaded);
  killOrphans(loaded.entries);
  const workspaces = new Workspaces(loaded, journal.path, options.crashPoints);
  const files = new StepFiles(loaded.runDir);
  const entries = new Map(loaded.file.tasks.map((entry) => [entry.id, entry]));
  const stepsFrom = { file: loaded.file, runDir: loaded.runDir, baseDir: loaded.run.baseDir };
  const tasks = [...loaded.state.tasks];
  const start: LoopState = { ...loaded.state, tasks };
  // Every step the unfinished tasks will run must be able to start, before any does.
  preflightResume(loaded);
  return { launch, workspaces, files, entries, stepsFrom, tasks, start };
}

/** The fields an event shares with the effect it carries out. */
function eventBase(effect: TaskEffect) {
  return { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
}

/** Waits until no other runner holds the task, or the drive stops. */
async function holdTask(
  leases: Leases,
  taskId: string,
  progress: Progress,
  signal: AbortSignal,
): Promise<void> {
  for (let told = false; ; told = true) {
    const taken = leases.acquire(`task:${taskId}`);
    if (taken.ok) return;
    if (!told) {
      progress.notice(
        `task ${taskId} is being run by pid ${taken.holder.pid} on ${taken.holder.host}; waiting`,
      );
    }
    await sleep(LEASE_POLL_MS, undefined, { signal });
  }
}

/** What running a run's steps needs of it: its task file and where its steps run and write. */
interface RunOfSteps {
  readonly file: TaskFile;
  readonly runDir: string;
  readonly baseDir: string;
}

/** Runs a step as the task file describes it, in the task's workspace when it has one. */
function runStep(
  run: RunOfSteps,
  effect: RunStep,
  where: {
    /** The task file's entry for the task. */
    readonly entry: TaskFile["tasks"][number] | undefined;
    readonly workspace: string | undefined;
    readonly headroom: StepHeadroom;
    readonly files: StepFiles;
    readonly env: NonNullable<StepContext["env"]>;
    readonly launch: StepContext["launch"];
  },
  onSpawn: (processes: RunningStep) => void,
) {
  const entry = where.entry;
  const spec = entry === undefined ? undefined : stepsOf(run.file, entry)[effect.step];
  if (spec === undefined) {
    throw new LoopgateError("INVALID_EVENT", `task ${effect.taskId} has no ${effect.step} step`);
  }
  return executeStep(effect, spec, {
    runDir: run.runDir,
    baseDir: where.workspace ?? run.baseDir,
    outputLimit: run.file.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT,
    headroom: where.headroom,
    files: where.files,
    env: where.env,
    ...(where.launch === undefined ? {} : { launch: where.launch }),
    onSpawn,
  });
}
