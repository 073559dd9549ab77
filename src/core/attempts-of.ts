import type { Attempt, IterationCheck } from "./iteration-check.js";

/** Every attempt of the task, oldest first, the one just evaluated last. */
export function attemptsOf(check: IterationCheck): Attempt[] {
  const current: Attempt = {
    iteration: check.currentIteration,
    testResult: check.testResult,
    reviewResult: check.reviewResult,
    ...(check.diff === undefined ? {} : { diff: check.diff }),
    ...(check.score === undefined ? {} : { score: check.score }),
  };
  return [...(check.history ?? []), current];
}
