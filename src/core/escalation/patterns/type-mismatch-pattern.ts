import { truncateCodePoints } from "../../feedback/clean/code-points.js";
import type { AttemptRecord } from "../attempt-record.js";
import type { Literal } from "../literal.js";
import { findTypeMismatch } from "../type-mismatch.js";
import type { TypeMismatchPattern } from "./pattern.js";

/** Failures searched for a mismatch; a run with hundreds of failures has a bigger problem. */
const SEARCHED_FAILURES = 20;
/** Longest value quoted in a description. */
const VALUE_LENGTH = 40;

/** A value and its type, short: `"123" (string)`. */
function typed(literal: Literal, type: string): string {
  return `${truncateCodePoints(literal.text, VALUE_LENGTH)} (${type})`;
}

/**
 * The latest attempt's first failure whose expected and received values are the same literal
 * in two types (`123` vs `"123"`): a decision about the contract, not a bug a retry fixes. A
 * failure that names the field wins over an earlier one that does not (an array element's
 * `1,` vs `'1',`), so the person is told which field to decide on.
 */
export function typeMismatchPattern(records: readonly AttemptRecord[]): TypeMismatchPattern | null {
  const latest = records.at(-1);
  if (latest === undefined || latest.analysis.testStatus !== "fail") return null;
  const { failures, evidence } = latest.analysis;
  // The output's value diff stands in only where no parser read any values: else it is the
  // diff of a failure whose values are known, and would speak for one whose are not.
  const valued = failures.some((failure) => failure.expected !== null || failure.received !== null);
  const searched = valued ? { ...evidence, diff: null } : evidence;
  const found = failures
    .slice(0, SEARCHED_FAILURES)
    .map((failure) => findTypeMismatch(failure, searched))
    .filter((mismatch) => mismatch !== null);
  const mismatch = found.find((candidate) => candidate.field !== null) ?? found[0];
  if (mismatch === undefined) return null;
  const between = `between ${mismatch.subject ?? "implementation"} and test expectation`;
  const description =
    mismatch.field === null
      ? `Value format mismatch ${between}: ${typed(mismatch.received, mismatch.receivedType)} vs ${typed(mismatch.expected, mismatch.expectedType)}`
      : `${mismatch.field} format mismatch ${between}`;
  return { kind: "type-mismatch", description, iterations: [latest.iteration], mismatch };
}
