import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { LoopgateError } from "../../core/errors.js";
import type { Answer } from "../../core/loop/answer.js";
import { effectsOf, type TaskEffect } from "../../core/loop/effects-of.js";
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
import type { PostgresJournal } from "./postgres-journal.js";
import type { StepGate } from "./step-gate.js";

/** The name the task workflow is registered and enqueued under. */
export const TASK_WORKFLOW = "loopgate-task";

/** The DBOS topic a paused task receives its answer on. */
export const ANSWER_TOPIC = "answer";

/** How long one `recv` waits before the task waits again (a durable wait costs one row a turn). */
const ANSWER_WAIT_SECONDS = 3_600;

/** The workflow id of a task of a run: one workflow per task, the same on every worker. */
export function taskWorkflowId(runId: number, taskId: string): string {
  return `loopgate-run-${runId}-task-${taskId}`;
}

/** What the task workflow needs from the process it runs in. */
export interface TaskWorkflowContext {
  readonly journal: PostgresJournal;
  /** Where a run's step files live on this machine. */
  readonly runDir: (runId: number) => string;
  /** A task file as `run` read it in this process, secrets and all, by run. */
  readonly documents: ReadonlyMap<number, unknown>;
  /** This process's places to run steps, and its stop (see `StepGate`). */
  readonly gate: StepGate;
}

/** How a task's workflow ended: the task finished, or it waits for a human or a fixed task file. */
export type TaskEnd = "done" | "step-error";

/** The fields an event shares with the effect it carries out. */
function carrying(effect: TaskEffect) {
  return { effectId: effect.id, taskId: effect.taskId, iteration: effect.iteration };
}

/** The run's task file, its steps with their secrets (see `withStepSecrets`). */
function taskFileOf(run: RunRecord, context: TaskWorkflowContext, taskId: string): TaskFile {
  const file = decodeTaskFile(run.document);
  const plan = planOf(file);
  const loaded = withStepSecrets(
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
  if (!loaded.file.tasks.some((task) => task.id === taskId)) {
    throw new LoopgateError("INVALID_USAGE", `run ${run.id} has no task ${taskId}`);
  }
  return loaded.file;
}

/**
 * Registers the task workflow with DBOS (before `DBOS.launch`): it folds one task's events
 * through the pure loop, from its start, and carries out each effect as a DBOS step whose result
 * is the events it journaled. On recovery DBOS replays the workflow: finished steps give their
 * recorded events back without running, the step in flight runs again (at-least-once), so the
 * fold reaches the same state. A paused task waits in `DBOS.recv` for its answer.
 */
export function registerTaskWorkflow(
  context: TaskWorkflowContext,
): (runId: number, taskId: string) => Promise<TaskEnd> {
  const { journal } = context;
  const loadRun = DBOS.registerStep((runId: number) => journal.run(runId), {
    name: "loopgate-load-run",
  });
  const loadStory = DBOS.registerStep(
    async (runId: number, taskId: string) =>
      (await journal.taskEvents(runId, taskId)).map((entry) => entry.event),
    { name: "loopgate-load-story" },
  );
  const append = DBOS.registerStep(
    async (runId: number, taskSeq: number, event: LoopEvent) => {
      // `loopgate answer` journals its answer at the same place, with this note, as it sends it.
      const meta = event.type === "answer-given" ? { source: "loopgate answer" } : null;
      await journal.append(runId, taskSeq, event, meta);
      return event;
    },
    { name: "loopgate-append" },
  );
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
    async (runId: number, taskId: string): Promise<TaskEnd> => {
      context.gate.enter();
      try {
        return await carryOut(runId, taskId);
      } finally {
        context.gate.leave();
      }
    },
    { name: TASK_WORKFLOW },
  );

  /** The task's story from its start, or from where a recovery replays it. */
  async function carryOut(runId: number, taskId: string): Promise<TaskEnd> {
    const run = await loadRun(runId);
    const whole = planOf(decodeTaskFile(run.document));
    // The task alone: its effects are its own, and its events fold as they do in the whole run.
    const plan = { ...whole, tasks: whole.tasks.filter((task) => task.id === taskId) };
    // What the task journaled before this workflow started (nothing, unless `resume` rewound
    // it after a step error): folded, so the workflow carries the task on from there.
    let state = startLoop(plan).state;
    const story = await loadStory(runId, taskId);
    for (const event of story) state = transition(state, event).state;
    let taskSeq = story.length;
    for (;;) {
      // A stopping worker starts nothing new: the task is handed back to the queue.
      if (context.gate.isClosed) await context.gate.park();
      const effect = effectsOf(state)[0];
      let events: readonly LoopEvent[];
      switch (effect?.kind) {
        case undefined:
        case "finish":
          return "done";
        case "resume-step":
          return "step-error";
        case "run-step":
          events = await runStep(run, taskSeq, effect, state);
          break;
        case "record-decision":
          events = [
            await append(runId, taskSeq, {
              type: "decision-recorded",
              ...carrying(effect),
              input: effect.input,
              decision: effect.decision,
            }),
          ];
          break;
        case "await-answer": {
          await DBOS.setEvent("status", { awaiting: effect.id });
          // The answer command checks an answer before it sends it here. A task waiting for
          // one is nothing a stop has to wait for.
          context.gate.leave();
          const answer = await DBOS.recv<Answer>(ANSWER_TOPIC, ANSWER_WAIT_SECONDS).finally(() =>
            context.gate.enter(),
          );
          if (answer === null) continue;
          events = [
            await append(runId, taskSeq, { type: "answer-given", ...carrying(effect), answer }),
          ];
          await DBOS.setEvent("status", { running: true });
          break;
        }
      }
      for (const event of events) state = transition(state, event).state;
      taskSeq += events.length;
    }
  }
}
