import type { Condition, VerdictInput } from "./conditions/condition.js";
import { builtinConditions } from "./conditions/builtin-conditions.js";
import type { DecideInput } from "./decide-input.js";
import type { Decision, EscalateDecision, RetryDecision } from "./decision.js";
import type { Feedback, TestFeedback, TestOutputParser } from "./feedback/feedback.js";
import { builtinParsers } from "./feedback/parsers/builtin-parsers.js";
import { fitTestRead } from "./feedback/test-feedback.js";
import { readTestResult } from "./feedback/read-test-result.js";
import { reviewFeedback } from "./feedback/review-feedback.js";
import { combineFeedback } from "./feedback/combine-feedback.js";
import { escalation } from "./escalation/build-escalation.js";
import { attemptRecords, type AttemptRecord } from "./escalation/attempt-record.js";
import { attemptsOf } from "./attempts-of.js";
import { attemptSignatures } from "./escalation/attempt-signature.js";
import { evaluate } from "./verdict.js";
import { verdictInputOf } from "./verdict-input-of.js";

/** Extension points of `decide`: extra stop conditions and per-runner test-output parsers. */
export interface DecideOptions {
  /** Conditions to evaluate; defaults to the six built-ins. Any fired condition other than the approval gate and the stop score escalates. */
  readonly conditions?: readonly Condition<string, VerdictInput>[];
  /** Parsers tried before the general extractor; `builtinParsers` when omitted, `[]` for none. */
  readonly parsers?: readonly TestOutputParser[];
}

/** Conditions that end a loop by success or by a human's hand rather than by running out of something. */
const NOT_LIMITS: ReadonlySet<string> = new Set(["APPROVAL_GATE", "STOP_SCORE_REACHED"]);

/** Message carried by every proceed that validation earned. */
export const VALIDATION_PASSED_MESSAGE = "Validation passed. Proceeding to next task.";

/** Who decided and why, as the approval gate's messages quote it. */
function signedBy(approval: { readonly by?: string; readonly note?: string }): string {
  const by = approval.by === undefined ? "" : ` by ${approval.by}`;
  const note = approval.note === undefined || approval.note === "" ? "" : `: ${approval.note}`;
  return `${by}${note}`;
}

/**
 * SPEC §3: decides what the loop does after an attempt — proceed, retry with feedback,
 * escalate with a question, wait, or abort — and names the condition that decided. Pure.
 * Rules are tried in SPEC order; the first match wins.
 */
export function decide(input: DecideInput, options: DecideOptions = {}): Decision {
  const check = input.iterationCheck;
  const control = input.iterationControl;
  const parsers: readonly TestOutputParser[] = options.parsers ?? builtinParsers;
  const conditions: readonly Condition<string, VerdictInput>[] =
    options.conditions ?? builtinConditions;
  // Read once, lazily, when an escalation needs every attempt. NO_PROGRESS's signatures are
  // each computed once per attempt, not once per decision (see attemptSignatures).
  let records: AttemptRecord[] | undefined;
  const readAttempts = (): AttemptRecord[] =>
    (records ??= attemptRecords(attemptsOf(check), parsers));
  const fired = evaluate(
    verdictInputOf(input, parsers, (attempts) => attemptSignatures(attempts, parsers)),
    conditions,
  )
    .filter((evaluation) => evaluation.check.fired)
    .map((evaluation) => evaluation.code);
  const taskId = check.taskId;
  const iteration = check.currentIteration;
  const testPassed = check.testResult.status === "pass";
  const review = check.reviewResult.status;

  const escalate = (reason: string): EscalateDecision => ({
    action: "escalate",
    taskId,
    iteration,
    reason,
    fired,
    ...escalation({ check, reason, control, parsers, records: readAttempts() }),
  });
  const retry = (reason: RetryDecision["reason"], feedback: Feedback): RetryDecision => ({
    action: "retry",
    taskId,
    iteration: iteration + 1,
    reason,
    fired,
    feedback: {
      summary: feedback.summary,
      actionableItems: feedback.actionableItems,
      priority: feedback.priority,
    },
  });

  const approval = check.approval ?? null;
  if (approval !== null) {
    return approval.decision === "approve"
      ? {
          action: "proceed",
          taskId,
          iteration,
          reason: "APPROVAL_GATE",
          fired,
          message: `Approved${signedBy(approval)}. Proceeding to next task.`,
        }
      : {
          action: "abort",
          taskId,
          iteration,
          reason: "APPROVAL_GATE",
          fired,
          message: `Rejected${signedBy(approval)}. Task aborted.`,
        };
  }

  if (
    testPassed &&
    (review === "approve" || (review === "pending" && fired.includes("STOP_SCORE_REACHED")))
  ) {
    return {
      action: "proceed",
      taskId,
      iteration,
      reason: review === "approve" ? "VALIDATION_PASSED" : "STOP_SCORE_REACHED",
      fired,
      message: VALIDATION_PASSED_MESSAGE,
    };
  }

  const limit = fired.find((code) => !NOT_LIMITS.has(code));
  if (limit !== undefined) return escalate(limit);

  const maxLength = control.feedbackMaxLength;
  if (!testPassed) {
    if (!control.autoRetryOnTestFail) return escalate("AUTO_RETRY_DISABLED");
    // The signature and reasons read the same result: it is parsed once, fitted per cap.
    const tests = (cap: number): TestFeedback =>
      fitTestRead(readTestResult(check.testResult, parsers).read, cap);
    const reviews = (cap: number): Feedback =>
      reviewFeedback(check.reviewResult.feedback, { maxLength: cap });
    return retry(
      "TEST_FAILED",
      review === "reject" ? combineFeedback(tests, reviews, maxLength) : tests(maxLength),
    );
  }

  if (review === "reject") {
    if (!control.autoRetryOnReviewReject) return escalate("AUTO_RETRY_DISABLED");
    return retry("REVIEW_REJECTED", reviewFeedback(check.reviewResult.feedback, { maxLength }));
  }

  return {
    action: "wait",
    taskId,
    iteration,
    reason: "REVIEW_PENDING",
    fired,
    message: "Tests passed; the review is pending. Waiting for the reviewer.",
  };
}
