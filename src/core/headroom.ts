import { roundNumber } from "./format-number.js";
import type { VerdictInput } from "./conditions/condition.js";

/** How much room the loop has left, so its last pass can wrap up before a hard stop. */
export interface Headroom {
  readonly iterationsLeft: number;
  /** null when the budget is uncapped. */
  readonly budgetLeft: number | null;
}

/** Computes headroom; never below 0, and 0 exactly when the matching condition fires. */
export function headroom({ counters, policy }: VerdictInput): Headroom {
  const cap = policy.budgetCap ?? null;
  return {
    iterationsLeft: Math.max(0, policy.maxIterations - counters.iteration),
    budgetLeft:
      cap === null
        ? null
        : Math.max(0, roundNumber(roundNumber(cap) - roundNumber(counters.spend ?? 0))),
  };
}
