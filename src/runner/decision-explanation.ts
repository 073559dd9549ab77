import { builtinConditions } from "../core/conditions/builtin-conditions.js";
import type { DecideInput } from "../core/decide-input.js";
import type { Decision } from "../core/decision.js";
import { evaluate, type Evaluation } from "../core/verdict.js";
import { verdictInputOf } from "../core/verdict-input-of.js";

/** Why a decision was taken: every condition with its values, and the rule that matched. */
export interface DecisionExplanation {
  readonly conditions: readonly Evaluation[];
  /** The SPEC §3 rule that matched, in words. */
  readonly rule: string;
}

/** The SPEC §3 rule behind a decision, from its action and reason. */
function ruleOf(decision: Decision): string {
  switch (decision.reason) {
    case "APPROVAL_GATE":
      return `rule 1: a human's approval was given → ${decision.action}`;
    case "VALIDATION_PASSED":
      return "rule 2: the test passed and the review approved → proceed";
    case "STOP_SCORE_REACHED":
      return "rule 2: the test passed and the score reached stop_score → proceed";
    case "TEST_FAILED":
      return "rule 4: the test failed, no limit fired, auto-retry is on → retry";
    case "REVIEW_REJECTED":
      return "rule 5: the review rejected, no limit fired, auto-retry is on → retry";
    case "AUTO_RETRY_DISABLED":
      return "rules 4–5: the attempt failed and auto-retry is off → escalate";
    case "REVIEW_PENDING":
      return "rule 6: the test passed, the review is pending, no limit fired → wait";
    default:
      return `rule 3: the limit ${decision.reason} fired → escalate`;
  }
}

/**
 * Re-evaluates the stop conditions on a journaled decision's complete input: the values each
 * condition read, whether it fired, and the rule that decided.
 */
export function explainDecision(input: DecideInput, decision: Decision): DecisionExplanation {
  return { conditions: evaluate(verdictInputOf(input), builtinConditions), rule: ruleOf(decision) };
}
