import type { AwaitAnswer, Finish, LoopEffect, ResumeStep } from "./loop-effect.js";
import type { LoopState, TaskPhase, TaskState } from "./loop-state.js";
import { effectId } from "./effect-id.js";
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
  return state.tasks.find(
    (task): task is ActiveTask => task.phase.name !== "pending" && task.phase.name !== "done",
  );
}

/**
 * What one task waits for, whatever the concurrency: its current step, decision or pause; a task
 * not started yet waits for its first generate step, a finished one for nothing. Every event must
 * carry out its own task's next effect, so a journal is checked task by task.
 */
export function nextEffect(state: LoopState, task: TaskState): TaskEffect | undefined {
  const current = started(task);
  const base = { taskId: current.id, iteration: current.iteration };
  const phase = current.phase;
  switch (phase.name) {
    case "pending":
    case "done":
      return undefined;
    case "running": {
      const plan = state.plan.tasks.find((candidate) => candidate.id === current.id);
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
 * tasks that are not done, in file order — so tasks start in order as places free up, and a task
 * paused for a human keeps its place. A driver that rebuilt a state from its journal asks this
 * to know what to do next; `transition` returns the same list after every event.
 */
export function effectsOf(state: LoopState): LoopEffect[] {
  const unfinished = state.tasks.filter((task) => task.phase.name !== "done");
  if (unfinished.length === 0) return [FINISH];
  return unfinished
    .slice(0, state.plan.concurrency ?? 1)
    .flatMap((task) => nextEffect(state, task) ?? []);
}

/** Every task paused by a step error, in file order, each with its error. */
export function stepErrors(state: LoopState): ResumeStep[] {
  return state.tasks.flatMap((task) => {
    const effect = nextEffect(state, task);
    return effect?.kind === "resume-step" ? [effect] : [];
  });
}

/** Every task paused for a human, in file order, each with the question it waits on. */
export function awaitedAnswers(state: LoopState): AwaitAnswer[] {
  return state.tasks.flatMap((task) => {
    const effect = nextEffect(state, task);
    return effect?.kind === "await-answer" ? [effect] : [];
  });
}
