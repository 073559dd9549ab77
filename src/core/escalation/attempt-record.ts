import type { TestOutputParser } from "../feedback/feedback.js";
import { analyzeAttempt, type AttemptAnalysis } from "./attempt-analysis.js";
import type { AttemptLike } from "./attempt-like.js";
import { signatureOf } from "./attempt-signature.js";
import { diffSignature } from "./diff-signature.js";
import { outcomeReason, type OutcomeReason } from "./short-reason.js";

/** An attempt read once, with everything the summary, the patterns and the question need. */
export interface AttemptRecord {
  readonly iteration: number;
  readonly analysis: AttemptAnalysis;
  readonly signature: string;
  /** The fingerprint of the attempt's change, or null when no diff is known. */
  readonly diffSignature: string | null;
  readonly reason: OutcomeReason;
}

/** Whether the attempt failed something: a failing test or a rejecting review. */
export function isFailing(record: AttemptRecord): boolean {
  return record.analysis.testStatus === "fail" || record.analysis.reviewStatus === "reject";
}

/** Reads every attempt once, oldest first, so no output is parsed twice for one escalation. */
export function attemptRecords(
  attempts: readonly AttemptLike[],
  parsers?: readonly TestOutputParser[],
): AttemptRecord[] {
  return attempts.map((attempt) => {
    const analysis = analyzeAttempt(attempt, parsers);
    return {
      iteration: attempt.iteration,
      analysis,
      signature: signatureOf(analysis),
      diffSignature: diffSignature(attempt.diff),
      reason: outcomeReason(analysis),
    };
  });
}
