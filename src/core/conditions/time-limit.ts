import { formatNumber } from "../format-number.js";
import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/** Elapsed time reached the limit. The core has no clock, so without `elapsed_ms` it never fires. */
export const timeLimit = defineCondition(
  "TIME_LIMIT",
  Precedence.TIME_LIMIT,
  ({ counters, policy }) => {
    const limit = policy.timeLimitMs ?? null;
    if (limit === null) return held("no time_limit_ms set");
    if (counters.elapsedMs === undefined)
      return held(`no elapsed_ms supplied (time_limit_ms ${formatNumber(limit)})`);
    return counters.elapsedMs >= limit
      ? fired(
          `elapsed_ms ${formatNumber(counters.elapsedMs)} reached time_limit_ms ${formatNumber(limit)}`,
        )
      : held(
          `elapsed_ms ${formatNumber(counters.elapsedMs)} below time_limit_ms ${formatNumber(limit)}`,
        );
  },
);
