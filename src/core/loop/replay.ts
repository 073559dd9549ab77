import type { LoopEvent } from "./loop-event.js";
import type { LoopPlan } from "./loop-plan.js";
import type { LoopState, TaskState } from "./loop-state.js";
import { startLoop } from "./start-loop.js";
import { applyEvent } from "./transition.js";

/**
 * Rebuilds a loop's state from its plan and its journaled events, oldest first: the state
 * `transition` reaches event by event, in O(events). The task list is this fold's own, written
 * in place, so no event copies it. `visit` sees the state after each event, during the call
 * only: the fold writes the list on once it returns. Throws `INVALID_EVENT` like `transition`.
 */
export function replay(
  plan: LoopPlan,
  events: Iterable<LoopEvent>,
  visit?: (state: LoopState) => void,
): LoopState {
  const start = startLoop(plan).state;
  const tasks: TaskState[] = [...start.tasks];
  let state: LoopState = { ...start, tasks };
  for (const event of events) {
    const applied = applyEvent(state, event);
    tasks[applied.position] = applied.task;
    state = { ...state, schedule: applied.schedule };
    visit?.(state);
  }
  return state;
}
