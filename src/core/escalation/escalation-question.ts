import { truncateCodePoints } from "../feedback/clean/code-points.js";
import type { AttemptRecord } from "./attempt-record.js";
import { summaryLines } from "./attempts-summary.js";
import type { EscalationOption } from "./escalation.js";
import type { Literal } from "./literal.js";
import type { Pattern, TypeMismatchPattern } from "./patterns/pattern.js";

/** How many attempts the question lists; the context's summary holds them all. */
const LISTED_ATTEMPTS = 5;
/** Longest a value may run in the question, so one huge string cannot bury the choice. */
const VALUE_LENGTH = 80;

/** `1 attempt`, `3 attempts`. */
function attemptCount(count: number): string {
  return count === 1 ? "1 attempt" : `${count} attempts`;
}

/** What happened, by the condition that escalated: `After 3 attempts,` / `Budget exhausted after 2 attempts;`. */
function leadIn(reason: string, count: number): string {
  const attempts = attemptCount(count);
  switch (reason) {
    case "MAX_ITERATIONS":
      return `After ${attempts},`;
    case "BUDGET_EXHAUSTED":
      return `Budget exhausted after ${attempts};`;
    case "TIME_LIMIT":
      return `Time limit reached after ${attempts};`;
    case "NO_PROGRESS":
      return `No progress after ${attempts};`;
    case "AUTO_RETRY_DISABLED":
      return `Automatic retry is disabled; after ${attempts},`;
    default:
      return `${reason} fired after ${attempts};`;
  }
}

/** A value as the question shows it: inside its field (`{ userId: 123 }`) when the field is known. */
function shown(field: string | null, literal: Literal): string {
  const text = truncateCodePoints(literal.text, VALUE_LENGTH);
  return field === null ? text : `{ ${field}: ${text} }`;
}

/**
 * The type-mismatch question: both values with their types side by side, and the two ways out
 * — adopt the code's type in the test, or the test's type in the code.
 */
function typeMismatchQuestion(
  pattern: TypeMismatchPattern,
  reason: string,
  count: number,
): string[] {
  const { field, subject, expected, received, expectedType, receivedType } = pattern.mismatch;
  const still = count > 1 ? "still fails" : "fails";
  const holder = subject === null ? "The code produces" : `The ${subject} contains`;
  return [
    `${leadIn(reason, count)} the test ${still} due to ${field === null ? "a value's" : field} format.`,
    "",
    `${holder}: ${shown(field, received)} (${receivedType})`,
    `The test expects: ${shown(field, expected)} (${expectedType})`,
    "",
    "Which format should be used?",
  ];
}

/** Where the latest attempt stands, in words that finish the lead-in sentence. */
function currentState(latest: AttemptRecord | undefined, count: number): string {
  const still = count > 1 ? "still " : "";
  if (latest === undefined) return "no attempt was recorded";
  const { label, detail } = latest.reason;
  switch (label) {
    case "Test failed":
      return `the test ${still}fails: ${detail ?? "no details"}`;
    case "Review rejected":
      return `the tests pass but the review ${still}rejects: ${detail ?? "no reason given"}`;
    case "Review pending":
      return "the tests pass and the review is still pending";
    case "Passed":
      return "the latest attempt passed";
  }
}

/** The attempts as the question lists them: the latest few, with a count of the ones left out. */
function triedLines(records: readonly AttemptRecord[]): string[] {
  const lines = summaryLines(records.slice(-LISTED_ATTEMPTS));
  const hidden = records.length - LISTED_ATTEMPTS;
  return hidden > 0 ? [`(${hidden} earlier attempts not shown)`, ...lines] : lines;
}

/** What happened, why it stopped, the pattern if any, what was tried; the options follow. */
function generalQuestion(
  records: readonly AttemptRecord[],
  pattern: Pattern | null,
  reason: string,
): string[] {
  const count = records.length;
  return [
    // The state may end in the error's own full stop; the sentence needs only one.
    `${leadIn(reason, count)} ${currentState(records.at(-1), count).replace(/\.$/, "")}.`,
    ...(pattern === null ? [] : [`Pattern: ${pattern.description}`]),
    "",
    "Tried so far:",
    ...triedLines(records),
    "",
    "How should this task continue?",
  ];
}

/**
 * The question put to a human on escalation, ending in the options' numbered lines. With a
 * type mismatch it asks which type is right; otherwise it says what happened and why it
 * stopped, the pattern if any, and what was tried.
 */
export function escalationQuestion(
  records: readonly AttemptRecord[],
  pattern: Pattern | null,
  reason: string,
  options: readonly EscalationOption[],
): string {
  const body =
    pattern?.kind === "type-mismatch"
      ? typeMismatchQuestion(pattern, reason, records.length)
      : generalQuestion(records, pattern, reason);
  return [...body, ...options.map((option) => `${option.id}. ${option.label}`)].join("\n");
}
