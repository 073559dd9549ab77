/** The type of a scalar as a person names it in a question (`123` is a number, `"123"` a string). */
export type LiteralType = "string" | "number" | "boolean" | "null" | "undefined";

/** A scalar value as a test runner printed it. */
export interface Literal {
  readonly type: LiteralType;
  /** The value as source code would write it; strings always double-quoted. */
  readonly text: string;
  /** The value without quotes: a string's content, otherwise `text`. */
  readonly value: string;
}

/** A number as JavaScript, Python, Go or Java print one. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/** Go's typed values as testify prints them: `int(123)`, `string("123")`. */
const GO_TYPED = /^(?:u?int(?:8|16|32|64)?|float(?:32|64)|string|bool)\((.*)\)$/s;
/** Keywords and their types, Python's spellings included. */
const KEYWORDS: ReadonlyMap<string, Literal> = new Map(
  (
    [
      ["true", "boolean", "true"],
      ["false", "boolean", "false"],
      ["True", "boolean", "true"],
      ["False", "boolean", "false"],
      ["null", "null", "null"],
      ["None", "null", "null"],
      ["nil", "null", "null"],
      ["undefined", "undefined", "undefined"],
    ] as const
  ).map(([word, type, text]) => [word, { type, text, value: text }]),
);

/** A quoted string's content, or null when the quotes do not hold one string. */
function unquote(text: string): string | null {
  const quote = text[0];
  if (text.length < 2 || (quote !== '"' && quote !== "'") || !text.endsWith(quote)) return null;
  const inner = text.slice(1, -1);
  if (quote === "'")
    return inner.includes("'") && !inner.includes("\\'") ? null : inner.replaceAll("\\'", "'");
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "string" ? parsed : null;
  } catch {
    // Not valid JSON escaping: not a literal we can compare reliably.
    return null;
  }
}

/**
 * Reads one scalar literal (`123`, `"123"`, `'123'`, `true`, `null`, Go's `int(123)`, …), or
 * null for anything else.
 */
export function parseLiteral(text: string): Literal | null {
  const trimmed = text.trim();
  const typed = GO_TYPED.exec(trimmed)?.[1];
  if (typed !== undefined) return parseLiteral(typed);
  const keyword = KEYWORDS.get(trimmed);
  if (keyword !== undefined) return keyword;
  if (NUMBER.test(trimmed)) return { type: "number", text: trimmed, value: trimmed };
  const content = unquote(trimmed);
  return content === null
    ? null
    : { type: "string", text: JSON.stringify(content), value: content };
}
