import { parseLiteral, type Literal } from "./literal.js";

/** The two type names to put before a person when one value was written in two types. */
export interface TypeConfusion {
  readonly expectedType: string;
  readonly receivedType: string;
}

/** Whether a string's content spells the same scalar as a non-string literal. */
function spells(content: string, other: Literal): boolean {
  if (other.type !== "number") return content === other.value;
  const number = parseLiteral(content);
  return number?.type === "number" && Number(number.value) === Number(other.value);
}

/** Whether a number literal is written without a fractional part or exponent. */
function isIntegerForm(literal: Literal): boolean {
  return /^[+-]?\d+$/.test(literal.value);
}

/**
 * Whether expected and received are the same value in two types — `123` vs `"123"`,
 * `true` vs `"true"`, `1.0` vs `1` — and the type names that tell them apart; null otherwise.
 */
export function typeConfusion(expected: Literal, received: Literal): TypeConfusion | null {
  if (expected.type === "number" && received.type === "number") {
    const sameValue = Number(expected.value) === Number(received.value);
    const integers = [isIntegerForm(expected), isIntegerForm(received)];
    if (!sameValue || integers[0] === integers[1]) return null;
    // Same number, one written as an integer: the runner's language tells ints from floats.
    return {
      expectedType: integers[0] === true ? "integer" : "float",
      receivedType: integers[1] === true ? "integer" : "float",
    };
  }
  if (expected.type === received.type) return null;
  const same =
    (expected.type === "string" && spells(expected.value, received)) ||
    (received.type === "string" && spells(received.value, expected));
  return same ? { expectedType: expected.type, receivedType: received.type } : null;
}
