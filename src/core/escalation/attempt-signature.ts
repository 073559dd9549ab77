import type { Failure, TestOutputParser } from "../feedback/feedback.js";
import { analyzeAttempt, type AttemptAnalysis } from "./attempt-analysis.js";
import type { AttemptOutcome } from "./attempt-like.js";
import { fnv1a64 } from "./fnv1a.js";
import { maskRunNoise, maskVolatile } from "./volatile-noise.js";

/** A failure without what moves between runs: test and file names keep their numbers, values do not. */
function failureKey(failure: Failure): string {
  return [
    maskRunNoise(failure.test ?? ""),
    maskRunNoise(failure.file ?? ""),
    maskVolatile(failure.message),
    maskVolatile(failure.expected ?? ""),
    maskVolatile(failure.received ?? ""),
  ].join(" | ");
}

/** Sorted and deduplicated, so the order a runner reports in does not matter. */
function canonicalSet(items: readonly string[]): string[] {
  return [...new Set(items)].sort();
}

/**
 * The canonical text of an analyzed attempt's outcome: statuses, the set of failures (or the
 * masked output when no parser split it) and, when rejected, the set of review points.
 */
function canonicalOutcome(analysis: AttemptAnalysis): string {
  const tests =
    analysis.testStatus === "pass"
      ? []
      : analysis.failures.length > 0
        ? canonicalSet(analysis.failures.map(failureKey))
        : [maskVolatile(analysis.output)];
  const points = canonicalSet(
    analysis.reviewPoints.map((point) => maskVolatile(point).toLowerCase()),
  );
  return [
    `test:${analysis.testStatus}`,
    ...tests,
    `review:${analysis.reviewStatus}`,
    ...points,
  ].join("\n");
}

/** The fingerprint of an attempt already analyzed, for callers that read the attempt anyway. */
export function signatureOf(analysis: AttemptAnalysis): string {
  return fnv1a64(canonicalOutcome(analysis));
}

/**
 * A short stable fingerprint of an attempt's outcome (16 hex digits, FNV-1a 64): equal for two
 * runs of the same failure whatever their timings, line:col positions or scratch paths; different
 * for different failing tests, messages or review points. A passing, approved attempt has its own.
 */
export function attemptSignature(
  attempt: AttemptOutcome,
  parsers?: readonly TestOutputParser[],
): string {
  return signatureOf(analyzeAttempt(attempt, parsers));
}

/** Signatures already computed, per parser set, per attempt object: weakly held, gone with the attempt. */
const computed = new WeakMap<readonly TestOutputParser[], WeakMap<AttemptOutcome, string>>();
/** The memo of `attemptSignature` without parsers given: the built-in ones. */
const BUILTIN = Object.freeze([]) as readonly TestOutputParser[];

/**
 * Each attempt's `attemptSignature`, computed once per attempt object however many decisions
 * read it: a task's history holds the same attempt objects from one decision to the next, so a
 * long task's NO_PROGRESS check costs a lookup per earlier attempt, not a parse of its output.
 * Attempts are values: one changed in place after a decision read it keeps its signature.
 */
export function attemptSignatures(
  attempts: readonly AttemptOutcome[],
  parsers?: readonly TestOutputParser[],
): string[] {
  const key = parsers ?? BUILTIN;
  let memo = computed.get(key);
  if (memo === undefined) {
    memo = new WeakMap();
    computed.set(key, memo);
  }
  return attempts.map((attempt) => {
    let signature = memo.get(attempt);
    if (signature === undefined) {
      signature = attemptSignature(attempt, parsers);
      memo.set(attempt, signature);
    }
    return signature;
  });
}
