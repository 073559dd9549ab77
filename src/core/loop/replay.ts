import type { LoopEvent } from "./loop-event.js";
import type { LoopPlan } from "./loop-plan.js";
import type { LoopState, TaskState } from "./loop-state.js";
import { startLoop } from "./start-loop.js";
import { applyEvent } from "./transition.js";

/**
 * Rebuilds a loop's state from its plan and its journaled events, oldest first: the state
 * `transition` reaches event by event, in O(events). The task list is this fold's own, written
 * in place, so no event copies it; nothing else sees it before the fold returns.
 */
export function replay(plan: LoopPlan, events: Iterable<LoopEvent>): LoopState {
  const start = startLoop(plan).state;
  const tasks: TaskState[] = [...start.tasks];
  let schedule = start.schedule;
  for (const event of events) {
    const applied = applyEvent({ ...start, tasks, schedule }, event);
    tasks[applied.position] = applied.task;
    schedule = applied.schedule;
  }
  return { ...start, tasks, schedule };
}
