/**
 * The line itself when it is an error's first line (`TypeError: x`, `AssertionError
 * [ERR_ASSERTION]: x`, `java.lang.AssertionError: x`, Go's `panic: x`, Jest's `thrown: x`).
 * Mocha's `Uncaught ` before an error thrown outside the test's own call (in a callback) is
 * not the error's: the line is given without it.
 */
export function errorLine(line: string): string | null {
  const trimmed = line.startsWith(UNCAUGHT) ? line.slice(UNCAUGHT.length) : line;
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

/** Mocha's word before an error its process handler caught. */
const UNCAUGHT = "Uncaught ";
