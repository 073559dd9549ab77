import type { LoopEffect } from "./loop-effect.js";
import type { LoopState, TaskPhase, TaskState } from "./loop-state.js";
import { effectId } from "./effect-id.js";

/** A task in progress: running a step, deciding, or paused for a human. */
export type ActiveTask = TaskState & {
  readonly phase: Exclude<TaskPhase, { name: "pending" } | { name: "done" }>;
};

/** The task the loop works on: the first that is neither pending nor done. */
export function activeTask(state: LoopState): ActiveTask | undefined {
  return state.tasks.find(
    (task): task is ActiveTask => task.phase.name !== "pending" && task.phase.name !== "done",
  );
}

/**
 * What the state waits for. A driver that rebuilt a state from its journal asks this to know
 * what to do next; `transition` returns the same list after every event.
 */
export function effectsOf(state: LoopState): LoopEffect[] {
  const task = activeTask(state);
  if (task === undefined) return [{ kind: "finish", id: "finish" }];
  const base = { taskId: task.id, iteration: task.iteration };
  const phase = task.phase;
  switch (phase.name) {
    case "running": {
      const plan = state.plan.tasks.find((candidate) => candidate.id === task.id);
      const poll = phase.step === "review" ? task.polls : 0;
      return [
        {
          kind: "run-step",
          id: effectId(task.id, task.iteration, phase.step, poll),
          ...base,
          step: phase.step,
          poll,
          delayMs: poll > 0 ? (plan?.reviewWait.intervalMs ?? 0) : 0,
          inputs: { prompt: plan?.prompt ?? "", feedback: task.feedback, answer: task.answer },
        },
      ];
    }
    case "deciding":
      return [
        {
          kind: "record-decision",
          id: effectId(task.id, task.iteration, "decision", task.decisions),
          ...base,
          input: phase.input,
          decision: phase.decision,
        },
      ];
    case "awaiting-answer":
      return [
        {
          kind: "await-answer",
          id: effectId(task.id, task.iteration, "answer", task.answers),
          ...base,
          decision: phase.decision,
          options: phase.options,
        },
      ];
  }
}
