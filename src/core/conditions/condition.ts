import type { Counters } from "../counters.js";
import type { Policy } from "../policy.js";

/** What every condition reads: the caller's counters and the policy they run under. */
export interface VerdictInput {
  readonly counters: Counters;
  readonly policy: Policy;
}

/**
 * The outcome of evaluating one condition. Both branches carry a reason, so an audit can show
 * why a condition held as well as why it fired.
 */
export type ConditionCheck =
  | { readonly fired: true; readonly reason: string }
  | { readonly fired: false; readonly reason: string };

/**
 * A stop condition: a code, a precedence slot (lower wins) and a pure check. Built-in and
 * user conditions are the same kind of value, so a custom one joins the same verdict.
 */
export interface Condition<
  Code extends string = string,
  Input extends VerdictInput = VerdictInput,
> {
  readonly code: Code;
  readonly precedence: number;
  readonly check: (input: Input) => ConditionCheck;
}

/** Builds a condition; the check returns `fired(reason)` or `held(reason)`. */
export function defineCondition<Code extends string, Input extends VerdictInput = VerdictInput>(
  code: Code,
  precedence: number,
  check: (input: Input) => ConditionCheck,
): Condition<Code, Input> {
  return Object.freeze({ code, precedence, check });
}

/** The check result of a condition that fired, with the measured value and the threshold in its reason. */
export function fired(reason: string): ConditionCheck {
  return { fired: true, reason };
}

/** The check result of a condition that did not fire, with why not. */
export function held(reason: string): ConditionCheck {
  return { fired: false, reason };
}
