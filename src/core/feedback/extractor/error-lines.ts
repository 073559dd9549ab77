import { isDiffHeader } from "./diff-lines.js";
import { setMessage } from "./failure-draft.js";
import type { LineReader } from "./extraction.js";
import { REPORT_START } from "./line-blocks.js";
import { frameLocation } from "./stack-frames.js";
import { VALUE_KEY } from "./value-lines.js";
import { errorLine } from "./error-line.js";

/**
 * An error's first line, the message of the failure being read (or of an orphan). node:assert
 * ends it with a colon and says what failed after a blank line (`The expression evaluated to a
 * falsy value:` / `assert(user.ok)`, `Expected values to be strictly equal:` / `'1' !== 1`):
 * that line is the rest of the message, unless it is a diff, a value or a frame, read as such,
 * or opens a value printed over several lines (`[`, `{`, `Map(2) {`: the values a loose
 * `deepEqual` prints whole before its diff).
 */
export const readErrorLine: LineReader = (extraction, { index, trimmed }) => {
  const error = errorLine(trimmed);
  if (error === null) return null;
  const rest = error.endsWith(":") ? continuation(extraction.lines, index) : "";
  setMessage(extraction.draft(), rest === "" ? error : `${error} ${rest}`);
  return index + 1;
};

/** The line after the blank one below `index`, when it is words rather than a structure. */
function continuation(lines: readonly string[], index: number): string {
  if ((lines[index + 1] ?? "x").trim() !== "") return "";
  const next = (lines[index + 2] ?? "").trim();
  const structural =
    next === "" ||
    isDiffHeader(next) ||
    VALUE_KEY.test(next) ||
    frameLocation(next) !== null ||
    REPORT_START.test(next) ||
    /[[{(]$/.test(next);
  return structural ? "" : next;
}

/** A bare `expect(received).toBe(expected)` matcher line (Jest's message when no error name is printed). */
export const readMatcherLine: LineReader = (extraction, { index, trimmed }) => {
  if (!trimmed.startsWith("expect(") || extraction.current === null) return null;
  setMessage(extraction.current, trimmed);
  return index + 1;
};
