import type { Condition, VerdictInput } from "../core/conditions/condition.js";
import type { BuiltinConditionCode } from "../core/conditions/precedence.js";
import { isRecord } from "../core/json-record.js";
import { headroom as coreHeadroom, type Headroom } from "../core/headroom.js";
import { evaluate as coreEvaluate, verdict as coreVerdict } from "../core/verdict.js";
import type { Evaluation, Verdict } from "../core/verdict.js";
import { decodeVerdictDocument } from "../wire/verdict-document.js";
import { fromLibrary } from "./library-input.js";

/**
 * `counters` and `policy` checked as the CLI checks a verdict document. The rest of the input
 * is for custom conditions to read, so it is kept as given when there are custom conditions
 * and refused as unknown when there are none.
 */
function checked<Input extends VerdictInput>(input: Input, custom: boolean): Input {
  if (!custom || !isRecord(input)) return fromLibrary(input, decodeVerdictDocument) as Input;
  const { counters, policy, ...rest } = input;
  return { ...rest, ...fromLibrary({ counters, policy }, decodeVerdictDocument) } as Input;
}

/**
 * SPEC §2: evaluates the stop conditions against the caller's counters; pure, and the input is
 * validated like the CLI's (an `InputError` naming the field, never a silently ignored key).
 * Pass your own list to add custom conditions (`[...builtinConditions, myCondition]`).
 */
export function verdict<
  Code extends string = BuiltinConditionCode,
  Input extends VerdictInput = VerdictInput,
>(input: Input, conditions?: readonly Condition<Code, Input>[]): Verdict<Code> {
  const valid = checked(input, conditions !== undefined);
  return conditions === undefined
    ? (coreVerdict(valid) as unknown as Verdict<Code>)
    : coreVerdict(valid, conditions);
}

/** Evaluates every condition in precedence order, fired or not, on validated input. */
export function evaluate<Code extends string, Input extends VerdictInput>(
  input: Input,
  conditions: readonly Condition<Code, Input>[],
): Evaluation<Code>[] {
  return coreEvaluate(checked(input, true), conditions);
}

/** How much room the loop has left; the input is validated like `verdict`'s. */
export function headroom(input: VerdictInput): Headroom {
  return coreHeadroom(checked(input, false));
}
