import { parseLiteral, type Literal } from "./literal.js";

/**
 * `key: scalar` pairs as runners print objects: JSON (`"userId": 123`), JavaScript
 * (`userId: 123`), Python (`'userId': '123'`). Nested objects contribute their scalar leaves.
 */
const KEY_VALUE =
  /(?<![\w$])(?:"([^"\\\n]{1,200})"|'([^'\\\n]{1,200})'|([a-z_$][\w$]{0,200}))\s*[:=]\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?\b|\w+)/gi;

/** The scalar values printed for each key in `text`, first occurrence wins; unparsable values are skipped. */
export function keyValues(text: string): Map<string, Literal> {
  const values = new Map<string, Literal>();
  for (const match of text.matchAll(KEY_VALUE)) {
    const key = match[1] ?? match[2] ?? match[3];
    const literal = parseLiteral(match[4] ?? "");
    if (key !== undefined && literal !== null && !values.has(key)) values.set(key, literal);
  }
  return values;
}
