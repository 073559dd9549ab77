import type { AttemptRecord } from "../attempt-record.js";
import { iterationSpan } from "./iteration-span.js";
import type { ConvergingPattern } from "./pattern.js";

/** Failing tests an attempt reports; null when the tests passed or no parser could count them. */
function failingCount(record: AttemptRecord): number | null {
  const { testStatus, failures } = record.analysis;
  return testStatus === "fail" && failures.length > 0 ? failures.length : null;
}

/**
 * The latest attempts (two or more) all fail the tests with a failing count that fell every
 * time: the loop is getting there, it ran out of attempts, not of ideas.
 */
export function converging(records: readonly AttemptRecord[]): ConvergingPattern | null {
  let start = records.length - 1;
  const countAt = (index: number): number | null => {
    const record = records[index];
    return record === undefined ? null : failingCount(record);
  };
  if (countAt(start) === null) return null;
  while (start > 0) {
    const earlier = countAt(start - 1);
    const later = countAt(start);
    if (earlier === null || later === null || earlier <= later) break;
    start -= 1;
  }
  const run = records.slice(start);
  const failingCounts = run.map(failingCount).filter((count): count is number => count !== null);
  const first = failingCounts[0];
  const last = failingCounts.at(-1);
  if (run.length < 2 || first === undefined || last === undefined) return null;
  const pace = (first - last) / (run.length - 1);
  const attemptsNeeded = Math.max(1, Math.ceil(last / pace));
  const iterations = run.map((record) => record.iteration);
  return {
    kind: "converging",
    description: `Converging: failing tests fell ${failingCounts.join(" → ")} in iterations ${iterationSpan(iterations)}; about ${attemptsNeeded} more ${attemptsNeeded === 1 ? "attempt" : "attempts"} at this pace`,
    iterations,
    failingCounts,
    attemptsNeeded,
  };
}
