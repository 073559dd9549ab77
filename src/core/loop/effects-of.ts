import type { AwaitAnswer, Finish, LoopEffect, ResumeStep } from "./loop-effect.js";
import type { LoopTask } from "./loop-plan.js";
import type { LoopState, TaskPhase, TaskState } from "./loop-state.js";
import { effectId } from "./effect-id.js";
import { allDone, firstInProgress, offered, positionOf } from "./schedule.js";
import { started } from "./task-moves.js";

/** A task in progress: running a step, deciding, or paused for a human. */
export type ActiveTask = TaskState & {
  readonly phase: Exclude<TaskPhase, { name: "pending" } | { name: "done" }>;
};

/** Work that belongs to one task: a step, a decision to journal, or a pause. */
export type TaskEffect = Exclude<LoopEffect, Finish>;

const FINISH: Finish = { kind: "finish", id: "finish" };

/** The first task in progress, in file order; with a concurrency above 1 others may be too. */
export function activeTask(state: LoopState): ActiveTask | undefined {
  const position = firstInProgress(state.schedule);
  return position === undefined ? undefined : (state.tasks[position] as ActiveTask);
}

/** The state of task `id`, found through the schedule's index. */
export function taskStateOf(state: LoopState, id: string): TaskState | undefined {
  const position = positionOf(state.schedule, id);
  return position === undefined ? undefined : state.tasks[position];
}

/** The plan of task `id`, found through the schedule's index. */
export function planTaskOf(state: LoopState, id: string): LoopTask | undefined {
  const position = positionOf(state.schedule, id);
  return position === undefined ? undefined : state.plan.tasks[position];
}

/**
 * What one task waits for, whatever the concurrency: its current step, decision or pause; a task
 * not started yet waits for its first generate step, a finished one for nothing. Every event must
 * carry out its own task's next effect, so a journal is checked task by task.
 */
export function nextEffect(state: LoopState, task: TaskState): TaskEffect | undefined {
  return taskEffect(planTaskOf(state, task.id), task);
}

/** What one task waits for, given its plan (see `nextEffect`). */
export function taskEffect(plan: LoopTask | undefined, task: TaskState): TaskEffect | undefined {
  const current = started(task);
  const base = { taskId: current.id, iteration: current.iteration };
  const phase = current.phase;
  switch (phase.name) {
    case "pending":
    case "done":
      return undefined;
    case "running": {
      const poll = phase.step === "review" ? current.polls : 0;
      // A step run again after a step error is new work: its id must not be the errored run's.
      const errors = current.stepErrors ?? 0;
      return {
        kind: "run-step",
        id: effectId(
          current.id,
          current.iteration,
          errors === 0 ? phase.step : `${phase.step}#${errors}`,
          poll,
        ),
        ...base,
        step: phase.step,
        poll,
        delayMs: poll > 0 ? (plan?.reviewWait.intervalMs ?? 0) : 0,
        inputs: { prompt: plan?.prompt ?? "", feedback: current.feedback, answer: current.answer },
      };
    }
    case "deciding":
      return {
        kind: "record-decision",
        id: effectId(current.id, current.iteration, "decision", current.decisions),
        ...base,
        input: phase.input,
        decision: phase.decision,
      };
    case "step-error":
      return {
        kind: "resume-step",
        id: effectId(current.id, current.iteration, "resume", current.stepErrors ?? 0),
        ...base,
        step: phase.step,
        error: phase.error,
      };
    case "awaiting-answer":
      return {
        kind: "await-answer",
        id: effectId(current.id, current.iteration, "answer", current.answers),
        ...base,
        decision: phase.decision,
        options: phase.options,
      };
  }
}

/**
 * What the state waits for: the next effect of each of the first `plan.concurrency` (default 1)
 * tasks that are neither done nor paused, in file order — so tasks start in order as places free
 * up — and of every paused task, which holds no place: a question waiting for its answer does
 * not stop the tasks after it. At concurrency 1 tasks run one after another, and a paused task
 * keeps the one place (see `offered`). A driver that rebuilt a state from its journal asks this
 * to know what to do next; `transition` returns the same list after every event.
 */
export function effectsOf(state: LoopState): LoopEffect[] {
  const count = state.tasks.length;
  if (allDone(state.schedule, count)) return [FINISH];
  return offered(state.schedule, state.plan.concurrency ?? 1, count).flatMap(
    (position) => effectAt(state, position) ?? [],
  );
}

/** The next effect of the task at `position`. */
function effectAt(state: LoopState, position: number): TaskEffect | undefined {
  const task = state.tasks[position];
  return task === undefined ? undefined : taskEffect(state.plan.tasks[position], task);
}

/** The next effects of the paused tasks, in file order. */
function pausedEffects(state: LoopState): TaskEffect[] {
  return state.schedule.paused.flatMap((position) => effectAt(state, position) ?? []);
}

/** Every task paused by a step error, in file order, each with its error. */
export function stepErrors(state: LoopState): ResumeStep[] {
  return pausedEffects(state).filter(
    (effect): effect is ResumeStep => effect.kind === "resume-step",
  );
}

/** Every task paused for a human, in file order, each with the question it waits on. */
export function awaitedAnswers(state: LoopState): AwaitAnswer[] {
  return pausedEffects(state).filter(
    (effect): effect is AwaitAnswer => effect.kind === "await-answer",
  );
}
