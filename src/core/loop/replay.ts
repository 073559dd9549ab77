import type { LoopEvent } from "./loop-event.js";
import type { LoopPlan } from "./loop-plan.js";
import type { LoopState } from "./loop-state.js";
import { startLoop } from "./start-loop.js";
import { transition } from "./transition.js";

/** Rebuilds a loop's state from its plan and its journaled events, oldest first. */
export function replay(plan: LoopPlan, events: Iterable<LoopEvent>): LoopState {
  let state = startLoop(plan).state;
  for (const event of events) state = transition(state, event).state;
  return state;
}
