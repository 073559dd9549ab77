import type { GenerateOutcome } from "../../core/loop/step-outcome.js";
import type { LoadedRun } from "../load-run.js";

/**
 * The generate outcome of each of a task's attempts in a run, by attempt number: the last one
 * journaled, as a step cut off and run again is journaled once it ends.
 */
export function attemptGenerations(
  loaded: LoadedRun,
  taskId: string,
): ReadonlyMap<number, GenerateOutcome> {
  const byAttempt = new Map<number, GenerateOutcome>();
  for (const { event } of loaded.entries) {
    if (event.type !== "step-finished" || event.taskId !== taskId) continue;
    if (event.outcome.step === "generate") byAttempt.set(event.iteration, event.outcome);
  }
  return byAttempt;
}
