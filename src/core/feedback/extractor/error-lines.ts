import { setMessage } from "./failure-draft.js";
import type { LineReader } from "./extraction.js";

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

/** An error's first line, the message of the failure being read (or of an orphan). */
export const readErrorLine: LineReader = (extraction, { index, trimmed }) => {
  const error = errorLine(trimmed);
  if (error === null) return null;
  setMessage(extraction.draft(), error);
  return index + 1;
};

/** A bare `expect(received).toBe(expected)` matcher line (Jest's message when no error name is printed). */
export const readMatcherLine: LineReader = (extraction, { index, trimmed }) => {
  if (!trimmed.startsWith("expect(") || extraction.current === null) return null;
  setMessage(extraction.current, trimmed);
  return index + 1;
};
