import type { Failure } from "../feedback/feedback.js";
import { assertionTarget } from "./assertion-target.js";
import { flatArrayElements } from "./flat-array.js";
import { keyValues } from "./key-values.js";
import type { DiffHolder, OutputEvidence, Sides } from "./output-evidence.js";
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

/** A compound identifier in a test name: `userId`, `user_id`, `testKeepsNumericUserId`. */
const COMPOUND = /\b[a-zA-Z][a-z\d]*(?:[A-Z][a-z\d]*|_[a-z\d]+)+\b/g;

/** Words that end a field's name: `user id`, `order total`, `created at`. */
const FIELD_ENDINGS: ReadonlySet<string> = new Set(
  "id ids uuid key name email count total price amount status type kind date at code version age role token".split(
    " ",
  ),
);

/** Words that never start a field's name in prose: `returns the id`, `a numeric id`. */
const NOT_FIELD_WORDS: ReadonlySet<string> = new Set(
  "a an the its their his her this that of by with as is are numeric string number integer text valid same new".split(
    " ",
  ),
);

/**
 * The field a test's name is about: a compound identifier short enough to be one (`userId`,
 * `user_id`), or inside a test method's name the word pair that ends in a field's word
 * (`testKeepsNumericUserId` → `userId`, `test_user_id_is_numeric` → `user_id`), or in a name
 * written in words such a pair, camel-cased (`keeps the user id` → `userId`). Null when the name
 * holds none.
 */
function fieldInName(test: string): string | null {
  return fieldInIdentifiers(test) ?? fieldInWords(test);
}

/** Whether a word may start a field's name: not an article or a type, not a verb (`parses ids`). */
function isFieldStart(word: string): boolean {
  return (
    /^[a-z]/.test(word) &&
    !NOT_FIELD_WORDS.has(word) &&
    (!word.endsWith("s") || word.endsWith("ss"))
  );
}

/** `user id` in a name written in words, as `userId`. */
function fieldInWords(test: string): string | null {
  const words = test.toLowerCase().split(/[^a-z\d]+/);
  const end = words.findIndex(
    (word, index) => index > 0 && FIELD_ENDINGS.has(word) && isFieldStart(words[index - 1] ?? ""),
  );
  const first = words[end - 1];
  const last = words[end];
  return end > 0 && first !== undefined && last !== undefined
    ? `${first}${last.charAt(0).toUpperCase()}${last.slice(1)}`
    : null;
}

/** The field in the compound identifiers of a name, the last one first. */
function fieldInIdentifiers(test: string): string | null {
  for (const [identifier] of [...test.matchAll(COMPOUND)].reverse()) {
    const snake = identifier.includes("_");
    const words = snake
      ? identifier.split("_").filter((word) => word !== "")
      : identifier.split(/(?=[A-Z])/).map((word) => word.toLowerCase());
    const end = words.findIndex((word, index) => index > 0 && FIELD_ENDINGS.has(word));
    const picked =
      end > 0
        ? words.slice(end - 1, end + 1)
        : words.length <= 2 && words[0] !== "test"
          ? words
          : null;
    if (picked === null) continue;
    return snake
      ? picked.join("_")
      : picked
          .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
          .join("");
  }
  return null;
}

/**
 * The field Jasmine's `toEqual` names by its path: `Expected $.user['@_id'] = '7' to equal 7.`
 * → `@_id`; an array index names no field (`$.ids[0]` → `ids`, `$[0].rating` → `rating`).
 */
function pathField(message: string): string | null {
  const path = /^Expected \$((?:\.[\w$]+|\[[^\]]+\])+) = /.exec(message)?.[1];
  if (path === undefined) return null;
  const keys = [...path.matchAll(/\.([\w$]+)|\[["']([^"']+)["']\]/g)].map(
    (match) => match[1] ?? match[2],
  );
  return keys.at(-1) ?? null;
}

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
  return confusionByElement(sides, field) ?? confusionByLine(sides, field);
}

/**
 * A type confusion between two arrays of scalars printed on one line each (RSpec's `expected:
 * ["a", 0]` / `got: ["a", "0"]`): the first pair of elements at the same index that confuse.
 */
function confusionByElement(
  sides: Sides,
  field: string | null,
): Omit<TypeMismatch, "subject"> | null {
  const expected = flatArrayElements(sides.expected);
  const received = flatArrayElements(sides.received);
  if (expected === null || received === null || expected.length !== received.length) return null;
  for (const [index, element] of expected.entries()) {
    const found = confusionIn({ expected: element, received: received[index] ?? "" }, field);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A type confusion between two sides printed one element a line, as a diff of two arrays shows
 * them (`false,` against `'false',`): the first pair of lines at the same place that confuse.
 */
function confusionByLine(sides: Sides, field: string | null): Omit<TypeMismatch, "subject"> | null {
  const expectedLines = sides.expected.split("\n");
  const receivedLines = sides.received.split("\n");
  if (expectedLines.length < 2 || expectedLines.length !== receivedLines.length) return null;
  const element = (line: string): string => line.trim().replace(/,$/, "");
  for (const [index, line] of expectedLines.entries()) {
    const found = confusionIn(
      { expected: element(line), received: element(receivedLines[index] ?? "") },
      field,
    );
    if (found !== null) return found;
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
  const target = assertionTarget(evidence.frames, failure);
  const subject = target?.subject ?? null;
  // `expect(userId).toBe(123)` checks a bare variable: the variable is the field; a call's
  // result (`field.deserialize("42")`) names none.
  const bareSubject = target?.bare === true ? subject : null;
  const field =
    target?.field ?? pathField(failure.message) ?? fieldInName(failure.test ?? "") ?? bareSubject;
  const given =
    failure.expected === null || failure.received === null
      ? null
      : { expected: failure.expected, received: failure.received };
  // Another failure's diff must not speak for one whose values the parser already read.
  const diff = failure.expected === null && failure.received === null ? evidence.diff : null;
  for (const sides of [given, pytestSides(failure.message), diff]) {
    const found = sides === null ? null : confusionIn(sides, field);
    if (found === null) continue;
    const named = found.field ?? holderKey(evidence.holders, found);
    return { ...found, field: named, subject: subject === named ? null : subject };
  }
  return null;
}

/**
 * The key of the array whose elements confuse (`"valid_false": [` above `- "false"` / `+ false`
 * in Mocha's diff): the field, when the elements have no key of their own. Null when no run of
 * the diff holds both values.
 */
function holderKey(
  holders: readonly DiffHolder[],
  found: Omit<TypeMismatch, "subject">,
): string | null {
  const holder = holders.find(
    (candidate) =>
      candidate.values.includes(found.expected.text) &&
      candidate.values.includes(found.received.text),
  );
  return holder?.key ?? null;
}
