import { formatNumber } from "../format-number.js";
import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/**
 * Cumulative spend reached the cap. A null or absent cap means uncapped and never fires: an
 * unset budget read as zero would halt every loop for a reason nobody chose. A cap of 0 is real.
 */
export const budgetExhausted = defineCondition(
  "BUDGET_EXHAUSTED",
  Precedence.BUDGET_EXHAUSTED,
  ({ counters, policy }) => {
    const cap = policy.budgetCap ?? null;
    const spend = counters.spend ?? 0;
    if (cap === null) return held(`spend ${formatNumber(spend)}, no budget_cap (uncapped)`);
    return spend >= cap
      ? fired(`spend ${formatNumber(spend)} reached budget_cap ${formatNumber(cap)}`)
      : held(`spend ${formatNumber(spend)} below budget_cap ${formatNumber(cap)}`);
  },
);
