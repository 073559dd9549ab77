import { oneLine } from "../../one-line.js";
import { withoutErrorName } from "./feedback-items.js";
import type { Failure } from "../feedback.js";

/** Failures with one root cause, in the order the output reported them; the first speaks for all. */
export type FailureGroup = readonly [Failure, ...Failure[]];

/**
 * Failures grouped by root cause: the same error words and the same expected and received
 * values (and, for findings, the same rule) are one cause, however many tests it broke — one
 * item names every test it hit instead of repeating the error. A failure that says nothing but
 * its name is a cause of its own. Groups keep the order of their first failure.
 */
export function groupByRootCause(failures: readonly Failure[]): FailureGroup[] {
  const byCause = new Map<string, Failure[]>();
  const groups: Failure[][] = [];
  for (const failure of failures) {
    const cause = causeOf(failure);
    const group = cause === null ? undefined : byCause.get(cause);
    if (group !== undefined) {
      group.push(failure);
      continue;
    }
    const created = [failure];
    groups.push(created);
    if (cause !== null) byCause.set(cause, created);
  }
  return groups as unknown as FailureGroup[];
}

/**
 * What a failure says went wrong, as a key; null when it says nothing beyond its name. A
 * message that only repeats the test's name (TAP and node-tap name an assertion by its message:
 * `Error: inc(1.2.3) === 1.3.0`) says nothing of the cause: the values alone do.
 */
function causeOf(failure: Failure): string | null {
  const own = oneLine(failure.message);
  const message = failure.test?.includes(withoutErrorName(own)) === true ? "" : own;
  if (message === "" && (failure.expected === null || failure.received === null)) return null;
  return JSON.stringify([message, failure.expected, failure.received, failure.rule ?? null]);
}
