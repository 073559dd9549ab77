import { ELLIPSIS } from "../clean/code-points.js";

/** Characters after which a value may start: it is not glued to a word. */
const BEFORE_VALUE = /[\s=:,]/;
/** Characters a value may be followed by. */
const AFTER_VALUE = /[\s,;:.)\]}]/;
/** Brackets that enclose a printed object or array. */
const CLOSING: Readonly<Record<string, string>> = { "{": "}", "[": "]" };

/**
 * `message` with the values it quotes replaced by `…`: the given values (in either quote style),
 * quoted strings and `{…}`/`[…]` literals, each only where it stands as a token of its own and
 * outside parentheses, so a call such as `Load(1)` or `Add(2, 2)` stays whole. What is left is
 * the kind of check (`expected … to deeply equal …`, `Load(1) = …, want …`), which items print
 * beside values they already show.
 */
export function elideValues(message: string, values: readonly string[]): string {
  const variants = [...new Set(values.flatMap((value) => [value, swapQuotes(value)]))]
    .filter((value) => value.trim() !== "")
    .sort((a, b) => b.length - a.length);
  const closers = matchingBrackets(message);
  let result = "";
  let depth = 0;
  let at = 0;
  while (at < message.length) {
    const char = message.charAt(at);
    const end =
      depth === 0 && startsToken(message, at)
        ? valueEnd(message, at, variants, closers)
        : undefined;
    if (end !== undefined) {
      result += ELLIPSIS;
      at = end;
      continue;
    }
    if (char === "(") depth += 1;
    else if (char === ")" && depth > 0) depth -= 1;
    result += char;
    at += 1;
  }
  return result
    .replace(/…(?:\s*…)+/g, ELLIPSIS)
    .replace(/\s+/g, " ")
    .trim();
}

/** `value` with single and double quotes exchanged, the other way a runner may print it. */
function swapQuotes(value: string): string {
  return value.replace(/["']/g, (quote) => (quote === '"' ? "'" : '"'));
}

/** Whether position `at` of `text` may start a value. */
function startsToken(text: string, at: number): boolean {
  return at === 0 || BEFORE_VALUE.test(text.charAt(at - 1));
}

/** Where a value starting at `at` ends (exclusive), if one that stands as a token starts there. */
function valueEnd(
  text: string,
  at: number,
  values: readonly string[],
  closers: ReadonlyMap<number, number>,
): number | undefined {
  const ends = [
    ...values.filter((value) => text.startsWith(value, at)).map((value) => at + value.length),
    literalEnd(text, at, closers),
  ];
  return ends.find(
    (end) => end !== undefined && (end >= text.length || AFTER_VALUE.test(text.charAt(end))),
  );
}

/** Where a quoted string or bracketed literal starting at `at` ends (exclusive). */
function literalEnd(
  text: string,
  at: number,
  closers: ReadonlyMap<number, number>,
): number | undefined {
  const char = text.charAt(at);
  if (char === '"' || char === "'") {
    const close = text.indexOf(char, at + 1);
    return close > at ? close + 1 : undefined;
  }
  const close = closers.get(at);
  return close === undefined ? undefined : close + 1;
}

/** The position of each opening bracket's matching closer, found in one pass. */
function matchingBrackets(text: string): Map<number, number> {
  const matches = new Map<number, number>();
  const open: number[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (CLOSING[char] !== undefined) {
      open.push(at);
      continue;
    }
    const top = open.at(-1);
    if (top !== undefined && CLOSING[text.charAt(top)] === char) {
      matches.set(top, at);
      open.pop();
    } else if (char === "}" || char === "]") {
      open.length = 0;
    }
  }
  return matches;
}
