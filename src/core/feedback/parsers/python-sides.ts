import { quotedEnd, topLevelParts } from "../clean/quoted-text.js";
import type { AssertedValues } from "../extractor/assertion-values.js";

/** The names Python's literals may hold: anything else names a computed value. */
const LITERAL_NAMES = new Set(["None", "True", "False"]);

/** A name that says its value is the wanted one: `expected`, `self.expected_output`, `WANT`. */
const EXPECTED_NAME = /(?:^|[._])(?:expected|expect|exp|want|wanted)(?:$|_)/i;

/** Prefixes a Python string literal may carry before its quote: `b'…'`, `rf"…"`. */
const STRING_PREFIXES = new Set(["b", "f", "r", "u", "br", "rb", "fr", "rf"]);

/**
 * unittest's `first != second`, read as received and expected by convention, the other way round
 * when the call on its `source` line passes the wanted value first (`firstArgumentExpected`).
 */
export function sidesAsCalled(
  values: AssertedValues | null,
  source: string,
): AssertedValues | null {
  return values !== null && firstArgumentExpected(source)
    ? { expected: values.received, received: values.expected }
    : values;
}

/**
 * Whether an `assertEqual(first, second)` call, as its source line shows it, passes the wanted
 * value first: unittest prints `first != second` and diffs `- first` / `+ second` whatever the
 * test meant, and tests write both orders. The first is the wanted value when it is a literal
 * (`assertEqual(2, cache.currsize)`) or named so (`assertEqual(expected, result)`) and the
 * second is neither; otherwise the convention `assertEqual(result, expected)` holds.
 */
export function firstArgumentExpected(source: string): boolean {
  const call = equalityArguments(source.trim());
  if (call === null) return false;
  const [first, second] = topLevelParts(call, ",").map((part) => part.trim());
  if (first === undefined || second === undefined) return false;
  if (isLiteral(second) || EXPECTED_NAME.test(second)) return false;
  return isLiteral(first) || EXPECTED_NAME.test(first);
}

/**
 * The text between the parentheses of the line's equality assertion (`assertEqual(`,
 * `assertEquals(`, `assertListEqual(`, …) and the line's last `)`; null when it makes none.
 * Scanned, not matched: a pattern with a run before `(` would backtrack on long lines.
 */
function equalityArguments(line: string): string | null {
  const close = line.lastIndexOf(")");
  if (close < 0 || line.slice(close + 1).trim() !== "") return null;
  for (let at = line.indexOf("assert"); at >= 0; at = line.indexOf("assert", at + 1)) {
    if (at > 0 && isNameChar(line.charAt(at - 1))) continue;
    let end = at + "assert".length;
    while (end < line.length && isNameChar(line.charAt(end))) end += 1;
    const name = line.slice(at, end);
    if (line.charAt(end) === "(" && close > end && /Equals?$/.test(name)) {
      return line.slice(end + 1, close);
    }
  }
  return null;
}

/** Whether a character can be part of a Python name. */
function isNameChar(char: string): boolean {
  return /^\w$/.test(char);
}

/** Whether a Python expression is a literal: numbers, strings and containers of them, `None`. */
function isLiteral(expression: string): boolean {
  if (expression.trim() === "") return false;
  return namesOutsideStrings(expression).every((name) => LITERAL_NAMES.has(name));
}

/** The names an expression uses outside its string literals (their prefixes aside). */
function namesOutsideStrings(expression: string): string[] {
  const names: string[] = [];
  let at = 0;
  while (at < expression.length) {
    const char = expression.charAt(at);
    if (char === "'" || char === '"') {
      const end = quotedEnd(expression, at);
      at = end < 0 ? expression.length : end;
    } else if (/^[a-z_]$/i.test(char)) {
      let end = at + 1;
      while (end < expression.length && isNameChar(expression.charAt(end))) end += 1;
      const name = expression.slice(at, end);
      const quoted = expression.charAt(end) === "'" || expression.charAt(end) === '"';
      if (!(quoted && STRING_PREFIXES.has(name.toLowerCase()))) names.push(name);
      at = end;
    } else at += 1;
  }
  return names;
}

/**
 * unittest's `<first> != <second>` without the label its sequence checks put before it
 * (`assertListEqual`'s `Lists differ: ['A', 'B', 'B'] != ['A', 'B', 'P']`, `Tuples differ:`,
 * `Sequences differ:`): the label is the check's words, not part of the first side.
 */
export function withoutSequenceLabel(text: string): string {
  return text.replace(/^(?:Lists|Tuples|Sequences) differ: /, "");
}
