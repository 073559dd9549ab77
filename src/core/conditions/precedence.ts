/**
 * Precedence slots of the built-in conditions (SPEC §2 order). Gaps of 100 leave room for a
 * custom condition between any two, e.g. `Precedence.BUDGET_EXHAUSTED + 50`.
 */
export const Precedence = Object.freeze({
  APPROVAL_GATE: 100,
  STOP_SCORE_REACHED: 200,
  BUDGET_EXHAUSTED: 300,
  MAX_ITERATIONS: 400,
  TIME_LIMIT: 500,
  NO_PROGRESS: 600,
});

/** Codes of the six built-in conditions. */
export type BuiltinConditionCode = keyof typeof Precedence;
