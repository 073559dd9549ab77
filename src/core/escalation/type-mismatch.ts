import type { Failure } from "../feedback/feedback.js";
import { assertionTarget } from "./assertion-target.js";
import { keyValues } from "./key-values.js";
import type { OutputEvidence, Sides } from "./output-evidence.js";
import { parseLiteral, type Literal } from "./literal.js";
import { typeConfusion } from "./type-confusion.js";

/** One value the test expected in one type and the code produced in another (`123` vs `"123"`). */
export interface TypeMismatch {
  /** The field holding the value (`userId`), or null when nothing names it. */
  readonly field: string | null;
  /** What holds the field in the test (`token`, `payload`), or null. */
  readonly subject: string | null;
  readonly expected: Literal;
  readonly received: Literal;
  /** Type names that tell the two apart: `number`/`string`, or `integer`/`float`. */
  readonly expectedType: string;
  readonly receivedType: string;
}

/** An identifier in a test name that looks like a field: `userId`, `user_id`. */
const FIELD_LIKE = /\b[a-z][a-z\d]*(?:[A-Z][a-z\d]*|_[a-z\d]+)+\b/;

/** pytest's `assert left == right`: left is what the code produced, right what the test expects. */
function pytestSides(message: string): Sides | null {
  const assertAt = message.indexOf("assert ");
  const equalsAt = message.indexOf(" == ", assertAt);
  if (assertAt < 0 || equalsAt < 0) return null;
  return {
    received: message.slice(assertAt + "assert ".length, equalsAt),
    expected: message.slice(equalsAt + " == ".length),
  };
}

/** A type confusion between two printed sides: as two scalars, or key by key as two objects. */
function confusionIn(sides: Sides, field: string | null): Omit<TypeMismatch, "subject"> | null {
  const expected = parseLiteral(sides.expected);
  const received = parseLiteral(sides.received);
  if (expected !== null && received !== null) {
    const types = typeConfusion(expected, received);
    return types === null ? null : { field, expected, received, ...types };
  }
  const receivedValues = keyValues(sides.received);
  for (const [key, expectedValue] of keyValues(sides.expected)) {
    const receivedValue = receivedValues.get(key);
    const types = receivedValue === undefined ? null : typeConfusion(expectedValue, receivedValue);
    if (receivedValue !== undefined && types !== null) {
      return { field: key, expected: expectedValue, received: receivedValue, ...types };
    }
  }
  return null;
}

/**
 * Finds a value the test expects in one type and the code produces in another, from the
 * failure's expected/received, a pytest `assert a == b`, or — when the parser found no values —
 * the output's diff lines. The field is named by the object key, else the assertion
 * (`expect(payload.userId)`), else the test name, else the asserted variable.
 */
export function findTypeMismatch(failure: Failure, evidence: OutputEvidence): TypeMismatch | null {
  const target = assertionTarget(evidence.frames, failure.line, failure.expected);
  const subject = target?.subject ?? null;
  // `expect(userId).toBe(123)` checks a bare variable: the variable is the field.
  const field = target?.field ?? FIELD_LIKE.exec(failure.test ?? "")?.[0] ?? subject;
  const given =
    failure.expected === null || failure.received === null
      ? null
      : { expected: failure.expected, received: failure.received };
  // Another failure's diff must not speak for one whose values the parser already read.
  const diff = failure.expected === null && failure.received === null ? evidence.diff : null;
  for (const sides of [given, pytestSides(failure.message), diff]) {
    const found = sides === null ? null : confusionIn(sides, field);
    if (found !== null) return { ...found, subject: subject === found.field ? null : subject };
  }
  return null;
}
