import { approvalGate } from "./approval-gate.js";
import { budgetExhausted } from "./budget-exhausted.js";
import { maxIterations } from "./max-iterations.js";
import { noProgress } from "./no-progress.js";
import { stopScoreReached } from "./stop-score-reached.js";
import { timeLimit } from "./time-limit.js";

/** The six SPEC §2 conditions, in precedence order. */
export const builtinConditions = Object.freeze([
  approvalGate,
  stopScoreReached,
  budgetExhausted,
  maxIterations,
  timeLimit,
  noProgress,
] as const);
