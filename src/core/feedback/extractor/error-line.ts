/**
 * The line itself when it is an error's first line (`TypeError: x`, `AssertionError
 * [ERR_ASSERTION]: x`, `java.lang.AssertionError: x`, Go's `panic: x`, Jest's `thrown: x`).
 */
export function errorLine(trimmed: string): string | null {
  const colon = trimmed.indexOf(": ");
  if (colon <= 0) return null;
  const head = trimmed.slice(0, colon);
  const code = head.indexOf(" [");
  const name = code > 0 && head.endsWith("]") ? head.slice(0, code) : head;
  if (!/^[\w$.]+$/.test(name)) return null;
  return name === "panic" || name === "thrown" || /(?:Error|Exception|Failure)$/.test(name)
    ? trimmed
    : null;
}
