import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { LoopgateError } from "../../core/errors.js";
import { effectsOf, type TaskEffect } from "../../core/loop/effects-of.js";
import type { LoopPlan } from "../../core/loop/loop-plan.js";
import type { RunStep } from "../../core/loop/loop-effect.js";
import type { LoopEvent } from "../../core/loop/loop-event.js";
import type { LoopState } from "../../core/loop/loop-state.js";
import { startLoop } from "../../core/loop/start-loop.js";
import { transition } from "../../core/loop/transition.js";
import { decodeTaskFile, planOf, stepsOf, type TaskFile } from "../../wire/task-file.js";
import { DEFAULT_OUTPUT_LIMIT } from "../bounded-output.js";
import { executeStep, stepRunEvent } from "../execute-step.js";
import type { RunRecord } from "../journal.js";
import { killOrphans } from "../sqlite-driver.js";
import { stepHeadroom } from "../step-headroom.js";
import { withStepSecrets } from "../step-secrets.js";
import type { LoadedRun } from "../load-run.js";
import type { StoreName } from "../notify/store-name.js";
import type { PostgresJournal } from "./postgres-journal.js";
import type { StepGate } from "./step-gate.js";

/** The name the work workflow (a task's steps between two decisions) is registered under. */
export const WORK_WORKFLOW = "loopgate-task-work";

/**
 * The workflow id of a task's work from place `place` of its story on: derived from the run, the
 * task and the place, so every worker (and every replay of the task) names the same workflow.
 * `attempt` counts the work workflows of that place that ended without giving their events (a
 * cancel, an error before a rewind): 0 the first time.
 */
export function workWorkflowId(
  runId: number,
  taskId: string,
  place: number,
  attempt: number,
): string {
  return `loopgate-run-${runId}-work-${place}${attempt === 0 ? "" : `.${attempt}`}-${taskId}`;
}

/** The task id a work workflow id names, or undefined when `id` names none of run `runId`. */
export function taskOfWorkWorkflow(runId: number, id: string): string | undefined {
  const prefix = `loopgate-run-${runId}-work-`;
  if (!id.startsWith(prefix)) return undefined;
  return /^\d+(?:\.\d+)?-(.+)$/.exec(id.slice(prefix.length))?.[1];
}

/** What the task and work workflows need from the process they run in. */
export interface TaskWorkflowContext {
  readonly journal: PostgresJournal;
  /** Where a run's step files live on this machine. */
  readonly runDir: (runId: number) => string;
  /** A task file as `run` read it in this process, secrets and all, by run. */
  readonly documents: ReadonlyMap<number, unknown>;
  /** This process's places to run steps, and its stop (see `StepGate`). */
  readonly gate: StepGate;
  /** The store as notifications name it (see `postgresStoreName`). */
  readonly store: StoreName;
  /** Where a notification that was not delivered is reported. */
  readonly warn: (line: string) => void;
}

/** The fields an event shares with the effect it carries out. */
export function carrying(effect: TaskEffect) {
  return { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
}

/** The plan of one task of a run: its effects are its own, its events fold as in the whole run. */
export function taskPlanOf(run: RunRecord, taskId: string): LoopPlan {
  const whole = planOf(decodeTaskFile(run.document));
  return { ...whole, tasks: whole.tasks.filter((task) => task.id === taskId) };
}

/**
 * The run as loaded, its task file's secrets restored from this process's copy of the task file
 * (see `withStepSecrets`); a process that has none (a `loopgate worker`) has the stored, redacted one.
 */
export function loadedRunOf(run: RunRecord, context: TaskWorkflowContext): LoadedRun {
  const file = decodeTaskFile(run.document);
  const plan = planOf(file);
  return withStepSecrets(
    {
      run,
      file,
      plan,
      entries: [],
      state: startLoop(plan).state,
      runDir: context.runDir(run.id),
    },
    context.documents.get(run.id),
  );
}

/** The run's task file, its steps with their secrets. */
function taskFileOf(run: RunRecord, context: TaskWorkflowContext, taskId: string): TaskFile {
  const loaded = loadedRunOf(run, context);
  if (!loaded.file.tasks.some((task) => task.id === taskId)) {
    throw new LoopgateError("INVALID_USAGE", `run ${run.id} has no task ${taskId}`);
  }
  return loaded.file;
}

/**
 * The work workflow as registered: the task's workflow (told on the topic of the work's own id
 * when it ends), the run's record as the task's workflow loaded it, task, the task's story so
 * far → the events it added.
 */
export type WorkWorkflow = (
  taskWorkflow: string,
  run: RunRecord,
  taskId: string,
  story: readonly LoopEvent[],
) => Promise<LoopEvent[]>;

/**
 * Registers the work workflow with DBOS (before `DBOS.launch`): given a task's story so far, it
 * folds it and carries out the steps the pure loop asks for next — generate, test, review —
 * each as a DBOS step through the shared `executeStep`, until the loop asks for something else
 * (a decision, an answer, the end); it returns the events its steps journaled. It runs on the
 * throttled work queue; its task's workflow waits for it, and carries out the rest.
 */
export function registerWorkWorkflow(context: TaskWorkflowContext): WorkWorkflow {
  const { journal } = context;
  const runStep = DBOS.registerStep(
    async (run: RunRecord, taskSeq: number, effect: RunStep, state: LoopState) => {
      const file = taskFileOf(run, context, effect.taskId);
      const entry = file.tasks.find((task) => task.id === effect.taskId);
      const spec = entry === undefined ? undefined : stepsOf(file, entry)[effect.step];
      if (spec === undefined) {
        throw new LoopgateError(
          "INVALID_EVENT",
          `task ${effect.taskId} has no ${effect.step} step`,
        );
      }
      if (effect.delayMs > 0) await sleep(effect.delayMs);
      const place = await context.gate.take();
      try {
        const started: LoopEvent = { type: "step-started", ...carrying(effect), step: effect.step };
        let journaled: Promise<unknown> = Promise.resolve();
        const ran = await executeStep(effect, spec, {
          runDir: context.runDir(run.id),
          baseDir: run.baseDir,
          outputLimit: file.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT,
          headroom: stepHeadroom(state, effect),
          onSpawn: (spawned) => {
            place.spawned(spawned);
            const meta = {
              pid: spawned.pid,
              host: hostname(),
              executor: DBOS.executorID,
              ...spawned.identity,
            };
            journaled = journal.append(run.id, taskSeq, started, meta).then(async (appended) => {
              // Run again: a dead worker of this host may have left the step's processes.
              if (!appended) {
                const earlier = await journal.events(run.id);
                killOrphans(earlier.filter((entry) => entry.event.effectId === effect.id));
              }
            });
          },
        });
        await journaled;
        // A step the worker's stop cut off is not judged: it runs again on another worker.
        if (place.cut()) return await context.gate.park();
        const finished = stepRunEvent(effect, ran);
        if (await journal.append(run.id, taskSeq + 1, finished)) return [started, finished];
        // A worker that lost this task (silent past its lease, yet still running) journaled the
        // step's end first: the task goes on from what the journal says.
        return [started, (await journal.stored(run.id, effect.taskId, taskSeq + 1)) ?? finished];
      } finally {
        place.release();
      }
    },
    { name: "loopgate-run-step" },
  );

  return DBOS.registerWorkflow(
    async (
      taskWorkflow: string,
      run: RunRecord,
      taskId: string,
      story: readonly LoopEvent[],
    ): Promise<LoopEvent[]> => {
      context.gate.enter();
      try {
        let state = startLoop(taskPlanOf(run, taskId)).state;
        for (const event of story) state = transition(state, event).state;
        const added: LoopEvent[] = [];
        for (;;) {
          // A stopping worker starts nothing new: the work is handed back to the queue.
          if (context.gate.isClosed) await context.gate.park();
          const effect = effectsOf(state)[0];
          if (effect?.kind !== "run-step") {
            await DBOS.send(taskWorkflow, added, DBOS.workflowID);
            return added;
          }
          const events = await runStep(run, story.length + added.length, effect, state);
          for (const event of events) state = transition(state, event).state;
          added.push(...events);
        }
      } finally {
        context.gate.leave();
      }
    },
    { name: WORK_WORKFLOW },
  );
}
