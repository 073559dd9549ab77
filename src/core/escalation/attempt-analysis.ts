import type { Failure, TestOutputParser } from "../feedback/feedback.js";
import type { ReviewStatus, TestStatus } from "../iteration-check.js";
import { reviewPointText } from "../feedback/review/review-point.js";
import { reviewPointsOf } from "../feedback/review/review-points-of.js";
import { readTestResult } from "../feedback/read-test-result.js";
import type { AttemptOutcome } from "./attempt-like.js";
import { outputEvidence, type OutputEvidence } from "./output-evidence.js";

/** One attempt read once: its statuses, its failures and review points, its cleaned output. */
export interface AttemptAnalysis {
  readonly testStatus: TestStatus;
  readonly reviewStatus: ReviewStatus;
  /** The failing tests the parsers found; empty when the tests passed. */
  readonly failures: readonly Failure[];
  /** The reviewer's points as written (uncut, unlike feedback items); empty unless the review rejected. */
  readonly reviewPoints: readonly string[];
  /** The test output as a person reads it: no ANSI, credentials redacted; empty when passed. */
  readonly output: string;
  /** The output's assertion frames and value diff. */
  readonly evidence: OutputEvidence;
}

/**
 * Reads an attempt's test output and review text once, redacted before anything is extracted,
 * so no credential reaches a reason, a pattern or a question.
 */
export function analyzeAttempt(
  attempt: AttemptOutcome,
  parsers?: readonly TestOutputParser[],
): AttemptAnalysis {
  const failed = attempt.testResult.status === "fail";
  const rejected = attempt.reviewResult.status === "reject";
  const tests = failed ? readTestResult(attempt.testResult, parsers) : null;
  const points = rejected ? reviewPointsOf(attempt.reviewResult.feedback) : [];
  return {
    testStatus: attempt.testResult.status,
    reviewStatus: attempt.reviewResult.status,
    failures: tests?.read.failures ?? [],
    reviewPoints: points.map(reviewPointText),
    output: tests?.output ?? "",
    evidence: outputEvidence(tests?.output ?? ""),
  };
}
