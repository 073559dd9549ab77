import type { TestOutputParser } from "../feedback/feedback.js";
import { redact } from "../feedback/redaction.js";
import type { Attempt, IterationCheck, IterationControl } from "../iteration-check.js";
import { attemptsOf } from "../attempts-of.js";
import { attemptRecords } from "./attempt-record.js";
import { summaryText } from "./attempts-summary.js";
import { boundedDiff } from "./bounded-diff.js";
import { findPattern } from "./detect-pattern.js";
import type { Escalation } from "./escalation.js";
import { escalationQuestion } from "./escalation-question.js";

/** What an escalation is built from: the check, the condition that escalated, the loop's settings. */
export interface EscalationInput {
  readonly check: IterationCheck;
  /** The stop condition that decided, or `AUTO_RETRY_DISABLED`. */
  readonly reason: string;
  readonly control: IterationControl;
  readonly parsers?: readonly TestOutputParser[];
}

/** The latest diff known: the current attempt's, else the newest in history; a blank one shows nothing. */
function latestDiff(attempts: readonly Attempt[]): string | null {
  return attempts.findLast((attempt) => (attempt.diff ?? "").trim() !== "")?.diff ?? null;
}

/**
 * SPEC §3 escalation: the attempts summary, the pattern detected (or null), the latest diff when
 * `escalation_includes_diff` is on (redacted, cut at a hunk boundary to 4,000 code points), and
 * a question ending in numbered options. Everything is redacted. Pure and deterministic.
 */
export function escalation({ check, reason, control, parsers }: EscalationInput): Escalation {
  const attempts = attemptsOf(check);
  const records = attemptRecords(attempts, parsers);
  const pattern = findPattern(records);
  const diff = control.escalationIncludesDiff ? latestDiff(attempts) : null;
  return {
    context: {
      attemptsSummary: redact(summaryText(records)),
      patternDetected: pattern === null ? null : redact(pattern.description),
      ...(diff === null ? {} : { diff: boundedDiff(redact(diff)) }),
    },
    question: redact(escalationQuestion(records, pattern, reason)),
  };
}
