import { LoopgateError } from "../../errors.js";
import { taskEffect, type TaskEffect } from "../effects-of.js";
import type { LoopEffect } from "../loop-effect.js";
import type { LoopEvent } from "../loop-event.js";
import type { LoopPlan, LoopTask } from "../loop-plan.js";
import type { TaskState } from "../loop-state.js";
import { startLoop } from "../start-loop.js";
import { taskAfter } from "../transition.js";

// The loop folded the plain way, to check the indexed fold against: every task found by a scan of
// the list, the list copied at every event, the effects chosen by filtering every task. Slow
// (O(events × tasks)) and obviously right; it shares only the per-task moves (`taskAfter`,
// `taskEffect`) with the real fold, so what it checks is the bookkeeping.

/** The reference fold's state: the plan and the tasks, nothing derived. */
export interface ReferenceState {
  readonly plan: LoopPlan;
  readonly tasks: readonly TaskState[];
}

/** The reference fold's first state. */
export function referenceStart(plan: LoopPlan): ReferenceState {
  return { plan, tasks: startLoop(plan).state.tasks };
}

/** The plan of `task`, by a scan. */
function planOf(state: ReferenceState, task: TaskState): LoopTask | undefined {
  return state.plan.tasks.find((candidate) => candidate.id === task.id);
}

/** One event applied, the task found by a scan and the list copied. */
export function referenceTransition(state: ReferenceState, event: LoopEvent): ReferenceState {
  const task = state.tasks.find((candidate) => candidate.id === event.taskId);
  const plan = task === undefined ? undefined : planOf(state, task);
  if (task === undefined || plan === undefined) {
    throw new LoopgateError("INVALID_EVENT", `event ${event.type}: unknown task`);
  }
  const applied = taskAfter(plan, task, event);
  return { ...state, tasks: state.tasks.map((each) => (each === task ? applied : each)) };
}

const paused = (task: TaskState) =>
  task.phase.name === "awaiting-answer" || task.phase.name === "step-error";

/**
 * What the state waits for, as docs/runner.md says it: at concurrency 1 the first task not done;
 * above, every paused task and the first `concurrency` of the others not done; in file order.
 */
export function referenceEffects(state: ReferenceState): LoopEffect[] {
  const unfinished = state.tasks.filter((task) => task.phase.name !== "done");
  if (unfinished.length === 0) return [{ kind: "finish", id: "finish" }];
  const places = state.plan.concurrency ?? 1;
  let open = 0;
  const chosen =
    places === 1
      ? unfinished.slice(0, 1)
      : unfinished.filter((task) => paused(task) || open++ < places);
  return chosen.flatMap((task) => taskEffect(planOf(state, task), task) ?? []);
}

/** Every paused task's effect, in file order, by a scan. */
export function referencePaused(state: ReferenceState): TaskEffect[] {
  return state.tasks.flatMap((task) =>
    paused(task) ? (taskEffect(planOf(state, task), task) ?? []) : [],
  );
}
