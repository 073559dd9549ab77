/** Convergence detection settings; `window` defaults to 3 and `minDelta` to 0. */
export interface NoProgressPolicy {
  readonly window?: number;
  readonly minDelta?: number;
}

/** The limits a loop runs under (SPEC §2 `policy`); absent or null limits never fire. */
export interface Policy {
  readonly maxIterations: number;
  readonly budgetCap?: number | null;
  /**
   * Also fire BUDGET_EXHAUSTED when the next attempt is expected (the mean attempt cost so far)
   * to cost more than the budget left, before it spends it. Off when absent.
   */
  readonly predictBudget?: boolean;
  readonly stopScore?: number | null;
  readonly noProgress?: NoProgressPolicy | null;
  readonly timeLimitMs?: number | null;
}

/** Window used when `no_progress` is set without one. */
export const DEFAULT_NO_PROGRESS_WINDOW = 3;
/** Minimum improvement used when `no_progress` is set without one. */
export const DEFAULT_NO_PROGRESS_MIN_DELTA = 0;
