import { roundNumber } from "../core/format-number.js";
import { planTaskOf, taskStateOf } from "../core/loop/effects-of.js";
import type { LoopState } from "../core/loop/loop-state.js";

/** The room a task has left as one of its steps starts: what the step is told in its environment. */
export interface StepHeadroom {
  /** Attempts the task may still make after the current one; 0 on its last. */
  readonly iterationsLeft: number;
  /** budget_cap (with what answers granted) less the task's spend so far; null when uncapped. */
  readonly budgetLeft: number | null;
  /** time_limit_ms (with grants) less the task's step time so far; null when unlimited. */
  readonly timeLeftMs: number | null;
}

/**
 * The task's headroom in the state its step starts from: the same caps, grants and counters its
 * next decision reads, so a step told "0.4 left" is decided against that same 0.4. The attempt
 * is the step's own: a task's first step runs before the state has started the task.
 */
export function stepHeadroom(
  state: LoopState,
  { taskId, iteration }: { readonly taskId: string; readonly iteration: number },
): StepHeadroom {
  const task = taskStateOf(state, taskId);
  const plan = planTaskOf(state, taskId);
  if (task === undefined || plan === undefined) {
    return { iterationsLeft: 0, budgetLeft: null, timeLeftMs: null };
  }
  const cap = plan.stopConditions.budgetCap ?? null;
  const limit = plan.stopConditions.timeLimitMs ?? null;
  return {
    iterationsLeft: Math.max(
      0,
      plan.iterationControl.maxIterations + task.grant.iterations - iteration,
    ),
    budgetLeft:
      cap === null
        ? null
        : Math.max(0, roundNumber(roundNumber(cap + task.grant.budget) - roundNumber(task.spend))),
    timeLeftMs:
      limit === null ? null : Math.max(0, Math.floor(limit + task.grant.timeMs - task.elapsedMs)),
  };
}

/** The headroom as the step protocol's variables; a cap that is not set is an empty value. */
export function headroomEnv(headroom: StepHeadroom): Record<string, string> {
  return {
    LOOPGATE_ITERATIONS_LEFT: String(headroom.iterationsLeft),
    LOOPGATE_BUDGET_LEFT: headroom.budgetLeft === null ? "" : String(headroom.budgetLeft),
    LOOPGATE_TIME_LEFT_MS: headroom.timeLeftMs === null ? "" : String(headroom.timeLeftMs),
  };
}
