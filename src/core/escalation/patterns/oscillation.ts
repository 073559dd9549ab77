import { isFailing, type AttemptRecord } from "../attempt-record.js";
import { formatReason } from "../short-reason.js";
import type { OscillationPattern } from "./pattern.js";

/** How many alternations (A, B, A, B) it takes to call it oscillation rather than chance. */
const MIN_ALTERNATING = 4;

/**
 * The latest attempts alternate between two different outcomes (A, B, A, B, …), at least one
 * of them failing: each attempt undoes the previous fix.
 */
export function oscillation(records: readonly AttemptRecord[]): OscillationPattern | null {
  const last = records.at(-1);
  const previous = records.at(-2);
  if (last === undefined || previous === undefined || last.signature === previous.signature) {
    return null;
  }
  let start = records.length - 2;
  while (start > 0 && records[start - 1]?.signature === records[start + 1]?.signature) start -= 1;
  const run = records.slice(start);
  if (run.length < MIN_ALTERNATING || (!isFailing(last) && !isFailing(previous))) return null;
  const iterations = run.map((record) => record.iteration);
  const outcomes = [formatReason(previous.reason), formatReason(last.reason)] as const;
  return {
    kind: "oscillation",
    description: `Oscillating between "${outcomes[0]}" and "${outcomes[1]}" since iteration ${(run[0] ?? previous).iteration}`,
    iterations,
    outcomes,
  };
}
