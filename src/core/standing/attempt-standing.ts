import { analyzeAttempt } from "../escalation/attempt-analysis.js";
import { markedPriority } from "../feedback/review/marked-priority.js";
import type { Attempt, ReviewStatus, TestStatus } from "../iteration-check.js";

/** How an attempt stands by its evidence: what its tests and its review said of it. */
export interface AttemptStanding {
  readonly iteration: number;
  readonly testStatus: TestStatus;
  /** Failing tests the parsed report (or output) names; at least 1 when the tests failed, 0 when they passed. */
  readonly failing: number;
  readonly reviewStatus: ReviewStatus;
  /** Points of a rejecting review marked high priority (`blocking`, `must`, `security`, …). */
  readonly urgentPoints: number;
  /** All points of a rejecting review; 0 for any other review. */
  readonly reviewPoints: number;
  /** The review's score, when it gave one. */
  readonly score: number | null;
}

/** Reads an attempt's standing from its test and review results. Pure. */
export function standingOf(attempt: Attempt): AttemptStanding {
  const analysis = analyzeAttempt(attempt);
  const failed = analysis.testStatus === "fail";
  return {
    iteration: attempt.iteration,
    testStatus: analysis.testStatus,
    failing: failed ? Math.max(1, analysis.failures.length) : 0,
    reviewStatus: analysis.reviewStatus,
    urgentPoints: analysis.reviewPoints.filter((point) => markedPriority(point) === "high").length,
    reviewPoints: analysis.reviewPoints.length,
    score: attempt.score ?? null,
  };
}

/** `1 failing test`, `3 failing tests`. */
function failingText(count: number): string {
  return `${count} failing test${count === 1 ? "" : "s"}`;
}

/** The review's part of a standing, in words. */
function reviewText(standing: AttemptStanding): string {
  switch (standing.reviewStatus) {
    case "approve":
      return "review approved";
    case "pending":
      return "review pending";
    case "reject": {
      const points = standing.reviewPoints;
      const urgent = standing.urgentPoints === 0 ? "" : `, ${standing.urgentPoints} urgent`;
      return points === 0
        ? "review rejected"
        : `review rejected (${points} point${points === 1 ? "" : "s"}${urgent})`;
    }
  }
}

/**
 * `attempt 2: 1 failing test, review approved` — a standing as a person reads it; without a
 * review step (`reviewed` false) the review, which approves by default, is not spoken of.
 */
export function describeStanding(standing: AttemptStanding, reviewed = true): string {
  const tests = standing.testStatus === "pass" ? "tests pass" : failingText(standing.failing);
  const review = reviewed ? `, ${reviewText(standing)}` : "";
  const score = standing.score === null ? "" : `, score ${standing.score}`;
  return `attempt ${standing.iteration}: ${tests}${review}${score}`;
}
