import { formatNumber, roundNumber } from "../format-number.js";
import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/**
 * Cumulative spend reached the cap. A null or absent cap means uncapped and never fires: an
 * unset budget read as zero would halt every loop for a reason nobody chose. A cap of 0 is real.
 * Compared as displayed (12 significant digits), so a summed spend of 0.1 + 0.7 reaches a cap of
 * 0.8 instead of leaving "spend 0.8 below budget_cap 0.8" in the audit trail.
 */
export const budgetExhausted = defineCondition(
  "BUDGET_EXHAUSTED",
  Precedence.BUDGET_EXHAUSTED,
  ({ counters, policy }) => {
    const cap = policy.budgetCap ?? null;
    const spend = roundNumber(counters.spend ?? 0);
    if (cap === null) return held(`spend ${formatNumber(spend)}, no budget_cap (uncapped)`);
    return spend >= roundNumber(cap)
      ? fired(`spend ${formatNumber(spend)} reached budget_cap ${formatNumber(cap)}`)
      : held(`spend ${formatNumber(spend)} below budget_cap ${formatNumber(cap)}`);
  },
);
