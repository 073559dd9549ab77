import type { BuiltinConditionCode } from "./conditions/precedence.js";
import type { Condition, ConditionCheck, VerdictInput } from "./conditions/condition.js";
import { builtinConditions } from "./conditions/builtin-conditions.js";
import { headroom, type Headroom } from "./headroom.js";

/** One condition's evaluation, kept for audits (`explain`). */
export interface Evaluation<Code extends string = string> {
  readonly code: Code;
  readonly check: ConditionCheck;
}

/** The verdict when nothing fired: continuing is stated, not implied. */
export interface ContinueVerdict<Code extends string = BuiltinConditionCode> {
  readonly stop: false;
  readonly condition: "CONTINUE";
  /** Always empty; typed like StopVerdict's so `fired.includes(code)` works on any verdict. */
  readonly fired: readonly Code[];
  readonly reasons: Readonly<Record<string, never>>;
  readonly headroom: Headroom;
}

/** The verdict when at least one condition fired: `condition` is the first in precedence order. */
export interface StopVerdict<Code extends string = BuiltinConditionCode> {
  readonly stop: true;
  readonly condition: Code;
  /** Never empty; the first entry is `condition`. */
  readonly fired: readonly Code[];
  readonly reasons: Readonly<Partial<Record<Code, string>>>;
  readonly headroom: Headroom;
}

/** SPEC §2 verdict: which conditions fired, which one decided, and why. */
export type Verdict<Code extends string = BuiltinConditionCode> =
  ContinueVerdict<Code> | StopVerdict<Code>;

/** Orders conditions by precedence; equal slots keep the order they were given in. */
export function byPrecedence<C extends Condition<string, never>>(conditions: readonly C[]): C[] {
  return conditions
    .map((condition, index) => ({ condition, index }))
    .sort((a, b) => a.condition.precedence - b.condition.precedence || a.index - b.index)
    .map(({ condition }) => condition);
}

/** Evaluates every condition in precedence order, fired or not. */
export function evaluate<Code extends string, Input extends VerdictInput>(
  input: Input,
  conditions: readonly Condition<Code, Input>[],
): Evaluation<Code>[] {
  return byPrecedence(conditions).map((condition) => ({
    code: condition.code,
    check: condition.check(input),
  }));
}

/** Turns evaluations into a verdict: the first fired condition decides, every fired one is listed. */
export function verdictOf<Code extends string>(
  evaluations: readonly Evaluation<Code>[],
  room: Headroom,
): Verdict<Code> {
  const hits = evaluations.filter((evaluation) => evaluation.check.fired);
  const [first, ...rest] = hits;
  if (first === undefined) {
    return { stop: false, condition: "CONTINUE", fired: [], reasons: {}, headroom: room };
  }
  const reasons: Partial<Record<Code, string>> = {};
  for (const hit of hits) reasons[hit.code] ??= hit.check.reason;
  return {
    stop: true,
    condition: first.code,
    fired: [first.code, ...rest.map((hit) => hit.code)],
    reasons,
    headroom: room,
  };
}

/**
 * SPEC §2: evaluates the stop conditions against the caller's counters. Pure. Pass your own
 * list to add custom conditions (`[...builtinConditions, myCondition]`).
 */
export function verdict<
  Code extends string = BuiltinConditionCode,
  Input extends VerdictInput = VerdictInput,
>(
  input: Input,
  conditions: readonly Condition<
    Code,
    Input
  >[] = builtinConditions as unknown as readonly Condition<Code, Input>[],
): Verdict<Code> {
  return verdictOf(evaluate(input, conditions), headroom(input));
}
