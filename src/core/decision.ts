import type { Feedback } from "./feedback/feedback.js";
import type { Escalation } from "./escalation/escalation.js";

/** Fields every decision carries: whose, which attempt, and every condition that fired. */
interface DecisionBase {
  readonly taskId: string;
  readonly iteration: number;
  /** Every stop condition that fired, in precedence order, including ones that did not decide. */
  readonly fired: readonly string[];
}

/** Move on to the next task: validation passed, or a human approved. */
export interface ProceedDecision extends DecisionBase {
  readonly action: "proceed";
  readonly reason: "APPROVAL_GATE" | "VALIDATION_PASSED" | "STOP_SCORE_REACHED";
  readonly message: string;
}

/** Stop this task for good: a human rejected it. */
export interface AbortDecision extends DecisionBase {
  readonly action: "abort";
  readonly reason: "APPROVAL_GATE";
  readonly message: string;
}

/** Run another attempt with focused feedback; `iteration` is the attempt about to run. */
export interface RetryDecision extends DecisionBase {
  readonly action: "retry";
  readonly reason: "TEST_FAILED" | "REVIEW_REJECTED";
  readonly feedback: Feedback;
}

/** Pause for a human: a stop condition fired or auto-retry is off. */
export interface EscalateDecision extends DecisionBase, Escalation {
  readonly action: "escalate";
  /** The stop condition that decided, or AUTO_RETRY_DISABLED. */
  readonly reason: string;
}

/** Tests passed and the review has not answered: poll the reviewer again. */
export interface WaitDecision extends DecisionBase {
  readonly action: "wait";
  readonly reason: "REVIEW_PENDING";
  readonly message: string;
}

/** SPEC §3 decision: what the loop does next and the condition that decided it. */
export type Decision =
  ProceedDecision | AbortDecision | RetryDecision | EscalateDecision | WaitDecision;

/** The action names a decision can carry. */
export type Action = Decision["action"];
