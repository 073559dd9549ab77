import type { Approval } from "../counters.js";
import type { DecideInput } from "../decide-input.js";
import type { LoopTask } from "./loop-plan.js";
import type { TaskState } from "./loop-state.js";
import { attemptOf } from "./attempt-of.js";

/** Adds granted room to a cap; an absent or null cap stays uncapped. */
function granted(cap: number | null | undefined, extra: number): number | null | undefined {
  return cap === null || cap === undefined ? cap : cap + extra;
}

/**
 * The complete `decide` input for the task's current attempt: its settings with the room a
 * human granted, its counters, and every earlier attempt as history.
 */
export function decideInputOf(
  plan: LoopTask,
  task: TaskState,
  approval: Approval | null = null,
): DecideInput {
  const attempt = attemptOf(task.iteration, task.current);
  const stop = plan.stopConditions;
  const budgetCap = granted(stop.budgetCap, task.grant.budget);
  const timeLimitMs = granted(stop.timeLimitMs, task.grant.timeMs);
  return {
    iterationControl: plan.iterationControl,
    stopConditions: {
      ...stop,
      ...(budgetCap === undefined ? {} : { budgetCap }),
      ...(timeLimitMs === undefined ? {} : { timeLimitMs }),
    },
    iterationCheck: {
      taskId: task.id,
      currentIteration: task.iteration,
      maxIterations: plan.iterationControl.maxIterations + task.grant.iterations,
      testResult: attempt.testResult,
      reviewResult: attempt.reviewResult,
      spend: task.spend,
      elapsedMs: task.elapsedMs,
      ...(attempt.score === undefined ? {} : { score: attempt.score }),
      ...(attempt.diff === undefined ? {} : { diff: attempt.diff }),
      ...(approval === null ? {} : { approval }),
      history: task.attempts,
    },
  };
}
