import { isDiffHeader } from "./diff-lines.js";
import { setMessage, setValue } from "./failure-draft.js";
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
  const loose = error.endsWith(":") ? looseComparison(extraction.lines, index) : null;
  if (loose !== null) {
    const draft = extraction.draft();
    setMessage(draft, error.slice(0, -1));
    setValue(draft, "received", loose.received, trimmed);
    setValue(draft, "expected", loose.expected, trimmed);
    return loose.next;
  }
  const rest = error.endsWith(":") ? continuation(extraction.lines, index) : "";
  setMessage(extraction.draft(), rest === "" ? error : `${error} ${rest}`);
  return index + 1;
};

/**
 * node:assert's loose comparison of two printed values, each on a line of its own between blank
 * lines: `Expected values to be loosely deep-equal:`, then `'-tda'`, `should loosely deep-equal`,
 * `'tda'` — the actual value first, the expected after the `should …` line. Null for any other
 * layout.
 */
function looseComparison(
  lines: readonly string[],
  index: number,
): { received: string; expected: string; next: number } | null {
  const at = (offset: number): string => (lines[index + offset] ?? "").trim();
  if (at(1) !== "" || at(3) !== "" || at(5) !== "" || !/^should \w[\w -]*$/.test(at(4)))
    return null;
  const [received, expected] = [at(2), at(6)];
  return received === "" || expected === "" ? null : { received, expected, next: index + 7 };
}

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
