import { formatNumber, roundNumber } from "../format-number.js";
import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/** The success case: the latest score met the quality threshold (compared as displayed, like the budget). */
export const stopScoreReached = defineCondition(
  "STOP_SCORE_REACHED",
  Precedence.STOP_SCORE_REACHED,
  ({ counters, policy }) => {
    const threshold = policy.stopScore ?? null;
    const score = counters.score ?? null;
    if (threshold === null) return held("no stop_score set");
    if (score === null) return held(`no score yet (stop_score ${formatNumber(threshold)})`);
    return roundNumber(score) >= roundNumber(threshold)
      ? fired(`score ${formatNumber(score)} reached stop_score ${formatNumber(threshold)}`)
      : held(`score ${formatNumber(score)} below stop_score ${formatNumber(threshold)}`);
  },
);
