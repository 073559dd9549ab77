import type { Failure } from "../feedback/feedback.js";
/** What the failing assertion inspected: the field it checked and the value holding it. */
export interface AssertionTarget {
  /** The checked property (`userId` in `expect(payload.userId)`), or null. */
  readonly field: string | null;
  /** The value under test (`payload`, or `token` in `expect(decode(token))`), or null. */
  readonly subject: string | null;
  /** Whether the assertion checks the subject itself, a bare variable (`expect(userId)`), not a call's result or a property. */
  readonly bare: boolean;
}

/** The line-number gutter of a code frame: Jest's `13 |`, Vitest's `13|`. */
const GUTTER = /^(\d+) *\|/;
/** A property access ending an expression: `.userId`, `?.userId`, `["userId"]`, Ruby's `[:user_id]`. */
const TRAILING_PROPERTY =
  /(?:\.([a-z_$][\w$]*)|\[\s*(?:["']([^"'\]]+)["']|:([a-z_]\w*))\s*\])\s*$/i;
/** `.toHaveProperty("path"` / `.toHaveProperty('a.b'` after `expect(...)`. */
const PROPERTY_MATCHER = /^\s*\.(?:not\.)?toHaveProperty\(\s*["'`]([^"'`]+)["'`]/;
/** Identifiers in an expression. */
const IDENTIFIER = /[a-z_$][\w$]*/gi;
/** An object literal without nested braces: its keys name no value (`makeToken({ id: 123 })`). */
const OBJECT_LITERAL = /\{[^{}]*\}/g;
/** A factory's name says what it makes: `makeToken` makes a token. */
const FACTORY = /^(?:make|create|build|get)([A-Z][\w$]*)$/;

/** Words that name no value. */
const NOT_SUBJECTS: ReadonlySet<string> = new Set([
  "await",
  "new",
  "typeof",
  "void",
  "this",
  "JSON",
]);

/** A code-frame line split into its marker (Jest's and pytest's `>`), line number and code. */
export interface FrameLine {
  readonly marked: boolean;
  readonly number: number | null;
  readonly code: string;
  /** A failure's header quotes it (RSpec's `Failure/Error:`), so that failure's message holds it. */
  readonly quoted?: true;
}

/** Splits `  > 13 |   expect(x)` into its parts; plain lines come back unmarked and unnumbered. */
function frameLine(text: string): FrameLine {
  let rest = text.trimStart();
  const marked = rest.startsWith(">");
  if (marked) rest = rest.slice(1).trimStart();
  const gutter = GUTTER.exec(rest);
  return gutter === null
    ? { marked, number: null, code: rest }
    : { marked, number: Number(gutter[1]), code: rest.slice(gutter[0].length) };
}

/** The index just past the parenthesis that closes the one opened before `start`, or -1. */
function closingParen(code: string, start: number): number {
  let depth = 1;
  let quote: string | null = null;
  for (let index = start; index < code.length; index += 1) {
    const char = code[index];
    if (quote !== null) {
      if (char === "\\") index += 1;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'" || char === "`") quote = char;
    else if (char === "(") depth += 1;
    else if (char === ")" && --depth === 0) return index + 1;
  }
  return -1;
}

/**
 * Calls whose first argument is the value under test: unittest's `assertEqual(result, expected)`
 * and its kin, Rust's `assert_eq!(actual, expected)` (which prints it as `left`).
 */
const ACTUAL_FIRST: readonly string[] = [
  "assertEqual(",
  "assertEquals(",
  "assertIs(",
  "assertIsInstance(",
  "assertAlmostEqual(",
  "assertDictEqual(",
  "assertListEqual(",
  "assert_eq!(",
];

/** The first argument of the call whose arguments open at `open`, or null. */
function firstArgument(code: string, open: number): string | null {
  const close = closingParen(code, open);
  if (close < 0) return null;
  let depth = 0;
  for (let index = open; index < close - 1; index += 1) {
    const char = code[index];
    if (char === "(" || char === "[" || char === "{") depth += 1;
    else if (char === ")" || char === "]" || char === "}") depth -= 1;
    else if (char === "," && depth === 0) return code.slice(open, index);
  }
  return null;
}

/** The expression under test and the matcher's property path (`toHaveProperty("userId")`), if any. */
function assertedExpression(code: string): { expression: string; path: string | null } | null {
  const expectAt = code.indexOf("expect(");
  if (expectAt >= 0) {
    const open = expectAt + "expect(".length;
    const close = closingParen(code, open);
    if (close < 0) return null;
    const path = PROPERTY_MATCHER.exec(code.slice(close))?.[1] ?? null;
    return { expression: code.slice(open, close - 1), path };
  }
  // RSpec's older syntax puts the value first: `decoded.should == [...]`, `x.should eq(1)`.
  const shouldAt = code.indexOf(".should");
  if (shouldAt > 0) return { expression: code.slice(0, shouldAt), path: null };
  for (const call of ACTUAL_FIRST) {
    const at = code.indexOf(call);
    const argument = at < 0 ? null : firstArgument(code, at + call.length);
    if (argument !== null) return { expression: argument, path: null };
  }
  const assertAt = code.indexOf("assert ");
  const equalsAt = code.indexOf("==", assertAt);
  if (assertAt < 0 || equalsAt < 0) return null;
  return { expression: code.slice(assertAt + "assert ".length, equalsAt), path: null };
}

/**
 * Python's traceback frame line, whose source line is printed below it: `File "t.py", line 16,
 * in test_x`, or pytest's short form (`--tb=short`) `tests/t.py:1650: in test_x`.
 */
const PYTHON_FRAME = /^\s*File "[^"]+", line (\d+), in |^[\w./-]+\.py:(\d+): in [\w[\]-]/;

/** Whether a code line holds an assertion. */
function asserts(code: string): boolean {
  return (
    code.includes("expect(") ||
    code.includes(".should") ||
    code.includes("assert ") ||
    ACTUAL_FIRST.some((call) => code.includes(call))
  );
}

/**
 * The code lines of an output that hold an assertion (`expect(`, `assert `, `assertEqual(`), in
 * order: code frames (Jest's and pytest's `>`, numbered gutters), the source line under a Python
 * traceback frame or a pytest short-traceback frame, numbered by the frame, and RSpec's `Failure/Error:` line, marked.
 */
export function assertionFrames(output: string): FrameLine[] {
  const lines = output.split("\n");
  return lines
    .map((text, index): FrameLine => {
      const trimmed = text.trimStart();
      if (trimmed.startsWith("Failure/Error: ")) {
        const code = trimmed.slice("Failure/Error: ".length);
        return { marked: true, number: null, code, quoted: true };
      }
      const python = PYTHON_FRAME.exec(lines[index - 1] ?? "");
      if (python !== null) {
        return { marked: false, number: Number(python[1] ?? python[2]), code: trimmed };
      }
      return frameLine(text);
    })
    .filter(
      // Framed lines only: a bare `expect(` elsewhere may be prose, not the failing line.
      (frame) => (frame.marked || frame.number !== null) && asserts(frame.code),
    );
}

/** How strongly a frame points at a failure: its line, the runner's `>` marker, the expected value. */
function rank(frame: FrameLine, line: number | null, expected: string | null): number {
  return (
    (line !== null && frame.number === line ? 4 : 0) +
    (frame.marked ? 2 : 0) +
    (expected !== null && frame.code.includes(expected) ? 1 : 0)
  );
}

/**
 * Reads the failing assertion from the output's code frames — `expect(payload.userId)`,
 * `expect(decode(token)).toHaveProperty("userId")`, `assert payload["userId"] == 123` — to
 * name the field it checked and the value holding it; the frame at the failure's line wins, and
 * an unnumbered failing line counts only for the failure whose message holds it. Null when no
 * frame shows one.
 */
export function assertionTarget(
  frames: readonly FrameLine[],
  failure: Pick<Failure, "line" | "expected" | "message">,
): AssertionTarget | null {
  const { line, expected, message } = failure;
  // A failing line a failure's header quotes (RSpec's `Failure/Error:`) is that failure's: one
  // this failure's message does not hold is another's, and tells nothing of this one.
  const own = frames.filter((frame) => frame.quoted !== true || message.includes(frame.code));
  // Stable sort: among equal ranks the first frame in the output wins.
  const ranked = own.sort((a, b) => rank(b, line, expected) - rank(a, line, expected));
  for (const { code } of ranked) {
    const asserted = assertedExpression(code);
    if (asserted === null) continue;
    const expression = asserted.expression.trim();
    const property = TRAILING_PROPERTY.exec(expression);
    const pathField = asserted.path?.split(".").at(-1) ?? null;
    const field = pathField ?? property?.[1] ?? property?.[2] ?? property?.[3] ?? null;
    const holder = property === null ? expression : expression.slice(0, property.index);
    const names = [...holder.replace(OBJECT_LITERAL, "").matchAll(IDENTIFIER)].filter(
      (match) => !NOT_SUBJECTS.has(match[0]),
    );
    // A method called on a value is no value: in `field.deserialize("42")` the subject is `field`.
    const values = names.filter(
      (match) =>
        !holder
          .slice(match.index + match[0].length)
          .trimStart()
          .startsWith("("),
    );
    const last = (values.length > 0 ? values : names).at(-1)?.[0] ?? null;
    const made = last === null ? undefined : FACTORY.exec(last)?.[1];
    const subject = made === undefined ? last : made.charAt(0).toLowerCase() + made.slice(1);
    return { field, subject, bare: /^[a-z_$][\w$]*$/i.test(expression) };
  }
  return null;
}
