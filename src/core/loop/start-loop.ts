import type { LoopEffect } from "./loop-effect.js";
import type { LoopPlan } from "./loop-plan.js";
import { LOOP_STATE_VERSION, type LoopState, type TaskState } from "./loop-state.js";
import { effectsOf } from "./effects-of.js";
import { scheduleOf } from "./schedule.js";

/** A task that has not started. */
function pendingTask(id: string): TaskState {
  return {
    id,
    iteration: 0,
    attempts: [],
    current: {},
    polls: 0,
    spend: 0,
    tokens: 0,
    elapsedMs: 0,
    generateRuns: 0,
    decisions: 0,
    answers: 0,
    grant: { iterations: 0, budget: 0, timeMs: 0 },
    feedback: null,
    answer: null,
    lastInput: null,
    lastDecision: null,
    phase: { name: "pending" },
  };
}

/**
 * The state before any event: every task still to start. Its effects are the first generate
 * step of the first task, or of the first `plan.concurrency` tasks.
 */
export function startLoop(plan: LoopPlan): { state: LoopState; effects: LoopEffect[] } {
  const tasks = plan.tasks.map((task) => pendingTask(task.id));
  const state: LoopState = {
    version: LOOP_STATE_VERSION,
    plan,
    tasks,
    schedule: scheduleOf(tasks),
  };
  return { state, effects: effectsOf(state) };
}
