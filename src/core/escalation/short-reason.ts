import type { TestOutputParser } from "../feedback/feedback.js";
import { codePointLength, truncateCodePoints } from "../feedback/clean/code-points.js";
import { analyzeAttempt, type AttemptAnalysis } from "./attempt-analysis.js";
import type { AttemptOutcome } from "./attempt-like.js";
import { failureReason } from "./failure-reason.js";

/** Longest short reason, label included, so each summary line stays one readable line. */
export const SHORT_REASON_MAX_LENGTH = 100;

/** An attempt's outcome in words: what kind (`Test failed`) and, when something failed, what. */
export interface OutcomeReason {
  readonly label: "Test failed" | "Review rejected" | "Review pending" | "Passed";
  readonly detail: string | null;
}

/** What failed in a failing run: the first failure's reason, with a count of the others. */
function testDetail(analysis: AttemptAnalysis): string {
  const [first, ...others] = analysis.failures;
  const more = others.length > 0 ? ` (+${others.length} more)` : "";
  const reason =
    first === undefined
      ? (analysis.output.split("\n").find((line) => line.trim() !== "") ?? "no output")
      : failureReason(first, analysis.evidence);
  const room = SHORT_REASON_MAX_LENGTH - "Test failed - ".length - codePointLength(more);
  return truncateCodePoints(reason.replace(/\s+/g, " ").trim(), room) + more;
}

/** Why an analyzed attempt did not pass, or that it passed; a failing test outranks the review. */
export function outcomeReason(analysis: AttemptAnalysis): OutcomeReason {
  if (analysis.testStatus === "fail") return { label: "Test failed", detail: testDetail(analysis) };
  if (analysis.reviewStatus === "reject") {
    const point = (analysis.reviewPoints[0] ?? "").replace(/\s+/g, " ").trim() || "no reason given";
    const room = SHORT_REASON_MAX_LENGTH - "Review rejected - ".length;
    return { label: "Review rejected", detail: truncateCodePoints(point, room) };
  }
  return { label: analysis.reviewStatus === "pending" ? "Review pending" : "Passed", detail: null };
}

/** An outcome reason as one line: `Test failed - token missing userId`, `Passed`. */
export function formatReason(reason: OutcomeReason): string {
  return reason.detail === null ? reason.label : `${reason.label} - ${reason.detail}`;
}

/**
 * The text after `Iteration N: ` in an attempts summary: `Test failed - <reason>`,
 * `Review rejected - <first point>`, `Review pending` or `Passed`; at most 100 code points.
 */
export function shortReason(
  attempt: AttemptOutcome,
  parsers?: readonly TestOutputParser[],
): string {
  return formatReason(outcomeReason(analyzeAttempt(attempt, parsers)));
}
