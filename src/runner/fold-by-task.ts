import { LoopgateError } from "../core/errors.js";
import type { LoopEvent } from "../core/loop/loop-event.js";
import type { LoopPlan } from "../core/loop/loop-plan.js";
import type { LoopState } from "../core/loop/loop-state.js";
import { scheduleOf } from "../core/loop/schedule.js";
import { startLoop } from "../core/loop/start-loop.js";
import { transition } from "../core/loop/transition.js";

/** One event to fold, with its place in the journal. */
export interface FoldEntry {
  readonly seq: number;
  readonly event: LoopEvent;
}

/** The folded state, or the first event (by `seq`) that does not fit the loop, and why. */
export type FoldResult =
  | { readonly ok: true; readonly state: LoopState }
  | { readonly ok: false; readonly seq: number; readonly message: string };

/**
 * The state folding `entries` in order from `startLoop(plan)` reaches, computed task by task.
 * The loop checks and applies every event against its own task alone (transition.ts), so each
 * task's events are folded in a state that holds that task only: O(events), however many tasks
 * the run has. `visit` sees each entry with its task's state after it. Whatever the events,
 * the result is the one-state fold's (fold-by-task.test.ts checks it on random runs).
 */
export function foldByTask<Entry extends FoldEntry>(
  plan: LoopPlan,
  entries: readonly Entry[],
  visit?: (entry: Entry, state: LoopState) => void,
): FoldResult {
  const start = startLoop(plan).state;
  const places = new Map(plan.tasks.map((task, index) => [task.id, index]));
  const alone = new Map<string, LoopState>();
  for (const entry of entries) {
    const taskId = entry.event.taskId;
    let state = alone.get(taskId) ?? stateOfTask(plan, places.get(taskId));
    try {
      state = transition(state, entry.event).state;
    } catch (error) {
      if (!LoopgateError.is(error) || error.code !== "INVALID_EVENT") throw error;
      return { ok: false, seq: entry.seq, message: error.message };
    }
    alone.set(taskId, state);
    visit?.(entry, state);
  }
  const tasks = start.tasks.map((task) => alone.get(task.id)?.tasks[0] ?? task);
  return { ok: true, state: { ...start, tasks, schedule: scheduleOf(tasks) } };
}

/**
 * The state one task's events fold in alone: the loop's start for a plan of only the task at
 * `place` (none for a task the plan lacks, so its events are refused as the whole state refuses
 * them).
 */
function stateOfTask(plan: LoopPlan, place: number | undefined): LoopState {
  const task = place === undefined ? undefined : plan.tasks[place];
  return startLoop({ ...plan, tasks: task === undefined ? [] : [task] }).state;
}
