import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/** The iteration cap. Iterations count from 1, so with a cap of 3 it fires at 3, never at 2. */
export const maxIterations = defineCondition(
  "MAX_ITERATIONS",
  Precedence.MAX_ITERATIONS,
  ({ counters, policy }) =>
    counters.iteration >= policy.maxIterations
      ? fired(`iteration ${counters.iteration} reached max_iterations ${policy.maxIterations}`)
      : held(`iteration ${counters.iteration} below max_iterations ${policy.maxIterations}`),
);
