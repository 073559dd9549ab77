import { isFailing, type AttemptRecord } from "../attempt-record.js";
import { formatReason } from "../short-reason.js";
import type { RepeatedFailurePattern } from "./pattern.js";

/** The latest attempts that share the latest attempt's signature, oldest first. */
function trailingRun(records: readonly AttemptRecord[]): AttemptRecord[] {
  const latest = records.at(-1);
  if (latest === undefined) return [];
  let start = records.length - 1;
  while (start > 0 && records[start - 1]?.signature === latest.signature) start -= 1;
  return records.slice(start);
}

/**
 * Two or more consecutive failing attempts, the latest among them, with the same signature;
 * described as what the loop is stuck on and since when, the repetition NO_PROGRESS saw.
 */
export function repeatedFailure(records: readonly AttemptRecord[]): RepeatedFailurePattern | null {
  const run = trailingRun(records);
  const latest = run.at(-1);
  if (run.length < 2 || latest === undefined || !isFailing(latest)) return null;
  const iterations = run.map((record) => record.iteration);
  const failure = latest.reason.detail ?? formatReason(latest.reason);
  return {
    kind: "repeated-failure",
    description: `Stuck on "${failure}" since iteration ${(run[0] ?? latest).iteration} (${iterations.length} attempts in a row)`,
    iterations,
    failure,
  };
}
