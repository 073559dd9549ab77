import type { AttemptRecord } from "./attempt-record.js";
import type { EscalationOption } from "./escalation.js";
import type { Pattern, TypeMismatchPattern } from "./patterns/pattern.js";
import { formatReason } from "./short-reason.js";

/** An option before it is numbered: ids are given by position, so they match the question's lines. */
type Unnumbered = Omit<EscalationOption, "id">;

/** Picking it gives the task up; every other option runs another attempt with its guidance. */
const ABORT: Unnumbered = {
  label: "Abort this task",
  action: "abort",
  guidance: "Give up on this task and move on to the next one.",
};

/**
 * Approving is no third action: the task continues to its end without another change, and a
 * runner that knows the approval gate may answer with an approval instead.
 */
const APPROVE_AS_IS: Unnumbered = {
  label: "Approve as is",
  action: "continue",
  guidance: "Accept the latest attempt as it is; make no further changes.",
};

/** How continuing costs more of whatever ran out, as the continue option's hint. */
function grant(reason: string): string {
  switch (reason) {
    case "BUDGET_EXHAUSTED":
      return "raise the budget";
    case "TIME_LIMIT":
      return "extend the time limit";
    case "AUTO_RETRY_DISABLED":
      return "retry once more";
    default:
      return "grant more attempts";
  }
}

/** `1 more iteration`, `3 more iterations`. */
function more(count: number, noun: string): string {
  return `${count} more ${noun}${count === 1 ? "" : "s"}`;
}

/** The grant a converging loop needs, in the words of what ran out. */
function grantLabel(reason: string, count: number): string {
  switch (reason) {
    case "MAX_ITERATIONS":
      return `Grant ${more(count, "iteration")}`;
    case "BUDGET_EXHAUSTED":
      return `Raise the budget for ${more(count, "attempt")}`;
    case "TIME_LIMIT":
      return `Extend the time limit for ${more(count, "attempt")}`;
    default:
      return `Grant ${more(count, "attempt")}`;
  }
}

/** `String`, `Number`: a type name as an option label. */
function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The seed's two ways out of a type mismatch: the code's type in the test, or the test's type in the code. */
function typeMismatchOptions({ mismatch }: TypeMismatchPattern): Unnumbered[] {
  const { field, subject, expected, received, expectedType, receivedType } = mismatch;
  const name = field ?? "the value";
  return [
    {
      label: `${capitalized(receivedType)} (update test)`,
      action: "continue",
      guidance: `Keep ${name} a ${receivedType} (${received.text}); update the test to expect a ${receivedType}.`,
    },
    {
      label: `${capitalized(expectedType)} (update implementation)`,
      action: "continue",
      guidance: `Make ${name} a ${expectedType} (${expected.text}) in the ${subject ?? "implementation"}.`,
    },
  ];
}

/** What the next attempt should do differently, read from the pattern or the latest outcome. */
function guidanceFor(pattern: Pattern | null, latest: AttemptRecord | undefined): string {
  switch (pattern?.kind) {
    case "repeated-failure":
      return `The last ${pattern.iterations.length} attempts failed the same way (${pattern.failure}); try a different approach.`;
    case "oscillation":
      return `Each attempt fixed one of "${pattern.outcomes[0]}" and "${pattern.outcomes[1]}" and broke the other; fix both in one change.`;
    case "repeated-review-point":
      return `The reviewer raised this point in every attempt since iteration ${pattern.iterations[0] ?? ""}; address it first: ${pattern.point}`;
    default:
      return latest === undefined
        ? "Try again."
        : `Fix the latest outcome: ${formatReason(latest.reason)}.`;
  }
}

/** The options for a pattern that says more attempts or steadier tests would get there. */
function patternOptions(
  pattern: Pattern,
  reason: string,
  latest: AttemptRecord | undefined,
): Unnumbered[] | null {
  switch (pattern.kind) {
    case "type-mismatch":
      return typeMismatchOptions(pattern);
    case "converging":
      return [
        {
          label: grantLabel(reason, pattern.attemptsNeeded),
          action: "continue",
          guidance: `Keep going: the failing tests fell ${pattern.failingCounts.join(" → ")}. Fix what still fails: ${latest?.reason.detail ?? "the remaining failures"}.`,
        },
        ABORT,
      ];
    case "flaky":
      return [
        {
          label: "Make the tests deterministic",
          action: "continue",
          guidance: `The same change passed in iteration ${pattern.passedIn.join(", ")} and failed in iteration ${pattern.failedIn.join(", ")}: find what makes the tests nondeterministic (timing, ordering, shared state, randomness) and fix that, not the implementation.`,
        },
        APPROVE_AS_IS,
        ABORT,
      ];
    default:
      return null;
  }
}

/** The options where the latest attempt stands: approving comes first once the tests pass. */
function generalOptions(
  pattern: Pattern | null,
  reason: string,
  latest: AttemptRecord | undefined,
): Unnumbered[] {
  const proceed: Unnumbered = {
    label: `Continue with guidance (${grant(reason)})`,
    action: "continue",
    guidance: guidanceFor(pattern, latest),
  };
  switch (latest?.reason.label) {
    case "Review rejected":
      return [proceed, { ...APPROVE_AS_IS, label: "Approve as is (override the review)" }, ABORT];
    case "Review pending":
    case "Passed":
      return [{ ...APPROVE_AS_IS, label: "Approve as is (the tests pass)" }, proceed, ABORT];
    default:
      return [proceed, ABORT];
  }
}

/**
 * The ways forward an escalation offers, numbered `"1"`, `"2"`, … in the order the question
 * lists them, each with what it does (`continue` or `abort`) and the guidance the next attempt
 * receives. A pattern picks its own options; otherwise they follow where the latest attempt stands.
 */
export function escalationOptions(
  records: readonly AttemptRecord[],
  pattern: Pattern | null,
  reason: string,
): EscalationOption[] {
  const latest = records.at(-1);
  const unnumbered =
    (pattern === null ? null : patternOptions(pattern, reason, latest)) ??
    generalOptions(pattern, reason, latest);
  return unnumbered.map((option, index) => ({ id: String(index + 1), ...option }));
}
