import { truncateCodePoints } from "./code-points.js";
import { oneLine } from "../one-line.js";
import type { Failure } from "./feedback.js";

/**
 * One actionable item per failure, facts first: `file:line test: expected X, received Y`, or the
 * error's own words when the values are unknown. Multi-line values are folded onto one line.
 */
export function failureItem(failure: Failure): string {
  const place =
    failure.file === null
      ? ""
      : failure.line === null
        ? failure.file
        : `${failure.file}:${failure.line}`;
  const who = [place, failure.test ?? ""].filter((part) => part !== "").join(" ");
  const what = failureFacts(failure);
  return who === "" ? what : `${who}: ${what}`;
}

/** The headline of a failure: the values when known, else its message, else its name. */
export function failureGist(failure: Failure): string {
  if (failure.expected !== null && failure.received !== null)
    return comparison(failure.expected, failure.received);
  return oneLine(failure.message) || (failure.test ?? failure.file ?? "failing test");
}

/** Longest part of the error's own words kept beside known values: the matcher or error name, not the whole message. */
const MESSAGE_BESIDE_VALUES = 48;

/** What went wrong, without where. */
function failureFacts(failure: Failure): string {
  if (failure.expected !== null && failure.received !== null) {
    // The error's own words name the kind of check (`toBe`, `strictly equal`, `left == right`),
    // which the values alone do not; kept short so the values still lead.
    const values = comparison(failure.expected, failure.received);
    const message = withoutAssertionName(oneLine(failure.message));
    if (!saysMoreThan(message, [failure.expected, failure.received])) return values;
    return `${values} (${truncateCodePoints(message, MESSAGE_BESIDE_VALUES)})`;
  }
  const parts = [
    withoutAssertionName(oneLine(failure.message)),
    failure.expected === null ? "" : `expected ${oneLine(failure.expected)}`,
    failure.received === null ? "" : `received ${oneLine(failure.received)}`,
  ].filter((part) => part !== "");
  return parts.length > 0 ? parts.join("; ") : "failed";
}

/** Words that only label values; a message made of them and the values repeats the values. */
const VALUE_LABELS: ReadonlySet<string> = new Set([
  "expected",
  "received",
  "actual",
  "got",
  "want",
]);

/** Whether `message` has words of its own beyond the values it quotes (`Expected: 4` has none). */
function saysMoreThan(message: string, values: readonly string[]): boolean {
  const rest = values.reduce((text, value) => text.replaceAll(oneLine(value), " "), message);
  return (rest.match(/[a-z]{2,}/gi) ?? []).some((word) => !VALUE_LABELS.has(word.toLowerCase()));
}

/** A message without the `AssertionError:` prefix, which every assertion failure shares and so says nothing. */
function withoutAssertionName(message: string): string {
  return message.replace(/^AssertionError(?: \[\w+\])?: /, "");
}

/** `expected X, received Y`. */
function comparison(expected: string, received: string): string {
  return `expected ${oneLine(expected)}, received ${oneLine(received)}`;
}
