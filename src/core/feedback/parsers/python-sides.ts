/** A unittest equality assertion's call as a traceback prints it: `self.assertEqual(2, cache.currsize)`. */
const EQUAL_CALL = /\bassert(?:Equals?|\w+Equal)\s*\((.*)\)\s*$/;

/** The names Python's literals may hold: anything else names a computed value. */
const LITERAL_NAMES = new Set(["None", "True", "False"]);

/** A name that says its value is the wanted one: `expected`, `self.expected_output`, `WANT`. */
const EXPECTED_NAME = /(?:^|[._])(?:expected|expect|exp|want|wanted)(?:$|_)/i;

/**
 * Whether an `assertEqual(first, second)` call, as its source line shows it, passes the wanted
 * value first: unittest prints `first != second` and diffs `- first` / `+ second` whatever the
 * test meant, and tests write both orders. The first is the wanted value when it is a literal
 * (`assertEqual(2, cache.currsize)`) or named so (`assertEqual(expected, result)`) and the
 * second is neither; otherwise the convention `assertEqual(result, expected)` holds.
 */
export function firstArgumentExpected(source: string): boolean {
  const call = EQUAL_CALL.exec(source.trim())?.[1];
  if (call === undefined) return false;
  const [first, second] = topLevelArguments(call);
  if (first === undefined || second === undefined) return false;
  if (isLiteral(second) || EXPECTED_NAME.test(second)) return false;
  return isLiteral(first) || EXPECTED_NAME.test(first);
}

/** Whether a Python expression is a literal: numbers, strings and containers of them, `None`. */
function isLiteral(expression: string): boolean {
  // Each string as `""`, its prefix (`b'…'`, `rf"…"`) with it.
  const code = expression
    .replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""')
    .replace(/\b[bfru]{1,2}""/gi, '""');
  const names = code.match(/[a-z_]\w*/gi) ?? [];
  return code.trim() !== "" && names.every((name) => LITERAL_NAMES.has(name));
}

/** The call's arguments split at commas outside brackets and quotes, each trimmed. */
function topLevelArguments(call: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let at = 0; at < call.length; at += 1) {
    const char = call.charAt(at);
    if (quote !== null) {
      if (char === "\\") at += 1;
      else if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if ("([{".includes(char)) depth += 1;
    else if (")]}".includes(char)) depth -= 1;
    else if (char === "," && depth === 0) {
      parts.push(call.slice(start, at).trim());
      start = at + 1;
    }
  }
  parts.push(call.slice(start).trim());
  return parts;
}
