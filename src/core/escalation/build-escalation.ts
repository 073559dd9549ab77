import type { TestOutputParser } from "../feedback/feedback.js";
import { redact } from "../redaction/redaction.js";
import type { Attempt, IterationCheck, IterationControl } from "../iteration-check.js";
import { attemptsOf } from "../attempts-of.js";
import { attemptRecords, type AttemptRecord } from "./attempt-record.js";
import { summaryText } from "./attempts-summary.js";
import { boundedDiff, ESCALATION_DIFF_MAX_LENGTH } from "./bounded-diff.js";
import { findPattern } from "./detect-pattern.js";
import type { Escalation, EscalationOption } from "./escalation.js";
import { escalationOptions } from "./escalation-options.js";
import { escalationQuestion } from "./escalation-question.js";
import { pointedAtByFailures } from "./failure-files.js";
import { noProgressPattern } from "./no-progress-pattern.js";

/** What an escalation is built from: the check, the condition that escalated, the loop's settings. */
export interface EscalationInput {
  readonly check: IterationCheck;
  /** The stop condition that decided, or `AUTO_RETRY_DISABLED`. */
  readonly reason: string;
  readonly control: IterationControl;
  readonly parsers?: readonly TestOutputParser[];
  /** The attempts already read (`attemptRecords`), when the caller has them: outputs are not parsed again. */
  readonly records?: readonly AttemptRecord[];
}

/** The latest diff known: the current attempt's, else the newest in history; a blank one shows nothing. */
function latestDiff(attempts: readonly Attempt[]): string | null {
  return attempts.findLast((attempt) => (attempt.diff ?? "").trim() !== "")?.diff ?? null;
}

/** An option with credentials redacted from the words a person or the next attempt reads. */
function redactedOption(option: EscalationOption): EscalationOption {
  return { ...option, label: redact(option.label), guidance: redact(option.guidance) };
}

/**
 * SPEC §3 escalation: the attempts summary, the pattern detected (or null; under NO_PROGRESS
 * it names the repetition), the latest diff when `escalation_includes_diff` is on (redacted,
 * whole hunks of the files the failures point at first, within 4,000 code points), a question
 * ending in numbered options and the same options structured. Everything is redacted. Pure.
 */
export function escalation(input: EscalationInput): Escalation {
  const { check, reason, control, parsers } = input;
  const attempts = attemptsOf(check);
  const records = input.records ?? attemptRecords(attempts, parsers);
  const found = findPattern(records);
  const pattern = reason === "NO_PROGRESS" ? noProgressPattern(records, found) : found;
  const diff = control.escalationIncludesDiff ? latestDiff(attempts) : null;
  const options = escalationOptions(records, pattern, reason).map(redactedOption);
  return {
    context: {
      attemptsSummary: redact(summaryText(records)),
      patternDetected: pattern === null ? null : redact(pattern.description),
      ...(diff === null
        ? {}
        : {
            diff: boundedDiff(
              redact(diff),
              ESCALATION_DIFF_MAX_LENGTH,
              pointedAtByFailures(records),
            ),
          }),
    },
    question: redact(escalationQuestion(records, pattern, reason, options)),
    options,
  };
}
