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

/** What went wrong, without where. */
function failureFacts(failure: Failure): string {
  if (failure.expected !== null && failure.received !== null)
    return comparison(failure.expected, failure.received);
  const parts = [
    withoutAssertionName(oneLine(failure.message)),
    failure.expected === null ? "" : `expected ${oneLine(failure.expected)}`,
    failure.received === null ? "" : `received ${oneLine(failure.received)}`,
  ].filter((part) => part !== "");
  return parts.length > 0 ? parts.join("; ") : "failed";
}

/** A message without the `AssertionError:` prefix, which every assertion failure shares and so says nothing. */
function withoutAssertionName(message: string): string {
  return message.replace(/^AssertionError(?: \[\w+\])?: /, "");
}

/** `expected X, received Y`. */
function comparison(expected: string, received: string): string {
  return `expected ${oneLine(expected)}, received ${oneLine(received)}`;
}

/** `text` with its lines joined by single spaces. */
function oneLine(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
}
