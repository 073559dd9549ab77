import { formatNumber, roundNumber } from "../format-number.js";
import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/**
 * Cumulative spend reached the cap. A null or absent cap means uncapped and never fires: an
 * unset budget read as zero would halt every loop for a reason nobody chose. A cap of 0 is real.
 * Compared as displayed (12 significant digits), so a summed spend of 0.1 + 0.7 reaches a cap of
 * 0.8 instead of leaving "spend 0.8 below budget_cap 0.8" in the audit trail. With
 * `predictBudget`, it also fires when the mean cost of the attempts so far is more than the
 * budget left: the next attempt would most likely be cut off by the cap after spending it all.
 */
export const budgetExhausted = defineCondition(
  "BUDGET_EXHAUSTED",
  Precedence.BUDGET_EXHAUSTED,
  ({ counters, policy }) => {
    const cap = policy.budgetCap ?? null;
    const spend = roundNumber(counters.spend ?? 0);
    if (cap === null) return held(`spend ${formatNumber(spend)}, no budget_cap (uncapped)`);
    if (spend >= roundNumber(cap)) {
      return fired(`spend ${formatNumber(spend)} reached budget_cap ${formatNumber(cap)}`);
    }
    const below = `spend ${formatNumber(spend)} below budget_cap ${formatNumber(cap)}`;
    if (policy.predictBudget !== true || counters.iteration < 1) return held(below);
    const expected = roundNumber(spend / counters.iteration);
    const left = roundNumber(roundNumber(cap) - spend);
    const attempts = `the mean of ${counters.iteration} attempt${counters.iteration === 1 ? "" : "s"}`;
    return expected > left
      ? fired(
          `predicted: the next attempt is expected to cost ${formatNumber(expected)} (${attempts}), more than the ${formatNumber(left)} left of budget_cap ${formatNumber(cap)}`,
        )
      : held(
          `${below}; the next attempt is expected to cost ${formatNumber(expected)} (${attempts})`,
        );
  },
);
