/**
 * The index just after the quoted string whose opening quote (`'` or `"`) is at `start`, its
 * backslash escapes skipped; -1 when the text ends before the string closes.
 */
export function quotedEnd(text: string, start: number): number {
  const quote = text.charAt(start);
  for (let at = start + 1; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (char === "\\") at += 1;
    else if (char === quote) return at + 1;
  }
  return -1;
}

/**
 * `text` split at each `separator` outside quoted strings and brackets, the parts as written:
 * the arguments of a printed call (`f(2, [1, 2], 'a, b')`), a printed value and what a runner
 * appended after it. A string that never closes runs to the end.
 */
export function topLevelParts(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (char === "'" || char === '"') {
      const end = quotedEnd(text, at);
      at = end < 0 ? text.length : end;
      continue;
    }
    if ("([{".includes(char)) depth += 1;
    else if (")]}".includes(char)) depth -= 1;
    else if (depth === 0 && text.startsWith(separator, at)) {
      parts.push(text.slice(start, at));
      start = at + separator.length;
      at = start;
      continue;
    }
    at += 1;
  }
  parts.push(text.slice(start));
  return parts;
}
