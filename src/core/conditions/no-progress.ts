import { formatNumber, roundNumber } from "../format-number.js";
import { DEFAULT_NO_PROGRESS_MIN_DELTA, DEFAULT_NO_PROGRESS_WINDOW } from "../policy.js";
import { defineCondition, fired, held } from "./condition.js";
import { Precedence } from "./precedence.js";

/** The largest score; a loop, because `Math.max(...scores)` overflows the call stack on long histories. */
function maxOf(scores: readonly number[]): number {
  let best = -Infinity;
  for (const score of scores) if (score > best) best = score;
  return best;
}

/** Why the scores show no progress, or null: the last `window` passes did not beat the earlier best by more than `minDelta`. */
export function stalledScores(
  scores: readonly number[],
  window: number,
  minDelta: number,
): string | null {
  if (scores.length <= window) return null;
  const bestBefore = maxOf(scores.slice(0, -window));
  const bestRecent = maxOf(scores.slice(-window));
  // Rounded so that 0.82 - 0.8 counts as exactly 0.02 against min_delta 0.02.
  const gain = roundNumber(bestRecent - bestBefore);
  if (gain > minDelta) return null;
  return `best score ${formatNumber(bestRecent)} of the last ${window} passes did not beat the earlier best ${formatNumber(bestBefore)} by more than min_delta ${formatNumber(minDelta)}`;
}

/** Why the signatures show the last `window` passes changed nothing, or null. */
export function repeatedSignature(signatures: readonly string[], window: number): string | null {
  if (signatures.length < window) return null;
  const recent = signatures.slice(-window);
  const first = recent[0];
  if (!recent.every((signature) => signature === first)) return null;
  return `the last ${window} passes have the same signature "${first}"`;
}

/** The fingerprint of an empty diff: the pass is known to have changed nothing. */
export const NO_CHANGE = "no change";

/** Why the changes show the last `window` passes tried the same code (or changed nothing), or null. */
export function repeatedChange(changes: readonly string[], window: number): string | null {
  if (changes.length < window) return null;
  const recent = changes.slice(-window);
  const first = recent[0];
  if (!recent.every((change) => change === first)) return null;
  return first === NO_CHANGE
    ? `the last ${window} passes changed nothing (empty diff)`
    : `the last ${window} passes have the same diff (the code did not change between them)`;
}

/** Why the signatures show the loop flipping between two outcomes (A, B, A, B), or null. */
export function oscillatingSignatures(signatures: readonly string[]): string | null {
  if (signatures.length < 4) return null;
  const [a, b, c, d] = signatures.slice(-4);
  if (a === b || a !== c || b !== d) return null;
  return `the last 4 passes oscillate between signatures "${a}" and "${b}"`;
}

/** The loop stopped converging: stalled scores, repeated outcomes, oscillation, or unchanged code. Off unless `no_progress` is set. */
export const noProgress = defineCondition(
  "NO_PROGRESS",
  Precedence.NO_PROGRESS,
  ({ counters, policy }) => {
    const settings = policy.noProgress ?? null;
    if (settings === null) return held("no_progress not set");
    const window = settings.window ?? DEFAULT_NO_PROGRESS_WINDOW;
    const minDelta = settings.minDelta ?? DEFAULT_NO_PROGRESS_MIN_DELTA;
    const signatures = counters.signatures ?? [];
    const findings = [
      stalledScores(counters.scores ?? [], window, minDelta),
      repeatedSignature(signatures, window),
      oscillatingSignatures(signatures),
      repeatedChange(counters.changes ?? [], window),
    ].filter((finding): finding is string => finding !== null);
    return findings.length > 0
      ? fired(findings.join("; "))
      : held(
          `progress within window ${window} (${counters.scores?.length ?? 0} scores, ${signatures.length} signatures)`,
        );
  },
);
