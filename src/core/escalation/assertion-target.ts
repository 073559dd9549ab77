/** What the failing assertion inspected: the field it checked and the value holding it. */
export interface AssertionTarget {
  /** The checked property (`userId` in `expect(payload.userId)`), or null. */
  readonly field: string | null;
  /** The value under test (`payload`, or `token` in `expect(decode(token))`), or null. */
  readonly subject: string | null;
}

/** The line-number gutter of a code frame: Jest's `13 |`, Vitest's `13|`. */
const GUTTER = /^(\d+) *\|/;
/** A property access ending an expression: `.userId`, `?.userId`, `["userId"]`. */
const TRAILING_PROPERTY = /(?:\.([a-z_$][\w$]*)|\[\s*["']([^"'\]]+)["']\s*\])\s*$/i;
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
  const assertAt = code.indexOf("assert ");
  const equalsAt = code.indexOf("==", assertAt);
  if (assertAt < 0 || equalsAt < 0) return null;
  return { expression: code.slice(assertAt + "assert ".length, equalsAt), path: null };
}

/** The code-frame lines of an output that hold an assertion (`expect(`, `assert `), in order. */
export function assertionFrames(output: string): FrameLine[] {
  return output
    .split("\n")
    .map(frameLine)
    .filter(
      // Framed lines only: a bare `expect(` elsewhere may be prose, not the failing line.
      (frame) =>
        (frame.marked || frame.number !== null) &&
        (frame.code.includes("expect(") || frame.code.includes("assert ")),
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
 * name the field it checked and the value holding it; the frame at the failure's line wins.
 * Null when no frame shows one.
 */
export function assertionTarget(
  frames: readonly FrameLine[],
  line: number | null,
  expected: string | null,
): AssertionTarget | null {
  // Stable sort: among equal ranks the first frame in the output wins.
  const ranked = [...frames].sort((a, b) => rank(b, line, expected) - rank(a, line, expected));
  for (const { code } of ranked) {
    const asserted = assertedExpression(code);
    if (asserted === null) continue;
    const expression = asserted.expression.trim();
    const property = TRAILING_PROPERTY.exec(expression);
    const pathField = asserted.path?.split(".").at(-1) ?? null;
    const field = pathField ?? property?.[1] ?? property?.[2] ?? null;
    const holder = property === null ? expression : expression.slice(0, property.index);
    const last =
      [...holder.replace(OBJECT_LITERAL, "").matchAll(IDENTIFIER)]
        .map((match) => match[0])
        .filter((name) => !NOT_SUBJECTS.has(name))
        .at(-1) ?? null;
    const made = last === null ? undefined : FACTORY.exec(last)?.[1];
    const subject = made === undefined ? last : made.charAt(0).toLowerCase() + made.slice(1);
    return { field, subject };
  }
  return null;
}
