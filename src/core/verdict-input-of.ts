import type { VerdictInput } from "./conditions/condition.js";
import type { DecideInput } from "./decide-input.js";
import type { Attempt } from "./iteration-check.js";
import type { TestOutputParser } from "./feedback/feedback.js";
import { attemptSignature } from "./escalation/attempt-signature.js";
import { attemptsOf } from "./attempts-of.js";
import { NO_CHANGE } from "./conditions/no-progress.js";
import { diffSignature } from "./escalation/diff-signature.js";

/** Scores of every attempt, when each one has a score; partial histories say nothing about a trend. */
function scoresOf(attempts: readonly Attempt[]): number[] | undefined {
  const scores = attempts.map((attempt) => attempt.score);
  return scores.every((score): score is number => typeof score === "number") ? scores : undefined;
}

/** Each attempt object's change signature, computed once however many decisions read it. */
const changeOfAttempt = new WeakMap<Attempt, string>();

/** Each attempt's change, when every attempt's diff is known: an empty diff is no change, not unknown. */
function changesOf(attempts: readonly Attempt[]): string[] | undefined {
  if (!attempts.every((attempt) => attempt.diff !== undefined)) return undefined;
  return attempts.map((attempt) => {
    let change = changeOfAttempt.get(attempt);
    if (change === undefined) {
      change = diffSignature(attempt.diff) ?? NO_CHANGE;
      changeOfAttempt.set(attempt, change);
    }
    return change;
  });
}

/**
 * The counters and policy SPEC §2 conditions read, derived from a `decide` document. Scores and
 * signatures the caller did not supply are derived from the attempts, so NO_PROGRESS works on
 * history alone; `deriveSignatures` lets a caller that reads the attempts anyway share that work.
 */
export function verdictInputOf(
  input: DecideInput,
  parsers?: readonly TestOutputParser[],
  deriveSignatures: (attempts: readonly Attempt[]) => readonly string[] = (attempts) =>
    attempts.map((attempt) => attemptSignature(attempt, parsers)),
): VerdictInput {
  const check = input.iterationCheck;
  const attempts = attemptsOf(check);
  const scores = check.scores ?? scoresOf(attempts);
  const watched = (input.stopConditions.noProgress ?? null) !== null;
  const signatures = check.signatures ?? (watched ? deriveSignatures(attempts) : undefined);
  const changes = watched ? changesOf(attempts) : undefined;
  return {
    counters: {
      iteration: check.currentIteration,
      spend: check.spend ?? 0,
      score: check.score ?? null,
      approval: check.approval ?? null,
      ...(scores === undefined ? {} : { scores }),
      ...(signatures === undefined ? {} : { signatures }),
      ...(changes === undefined ? {} : { changes }),
      ...(check.elapsedMs === undefined ? {} : { elapsedMs: check.elapsedMs }),
    },
    policy: {
      ...input.stopConditions,
      maxIterations: check.maxIterations ?? input.iterationControl.maxIterations,
    },
  };
}
