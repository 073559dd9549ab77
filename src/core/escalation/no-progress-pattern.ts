import type { AttemptRecord } from "./attempt-record.js";
import { oscillation } from "./patterns/oscillation.js";
import type { Pattern } from "./patterns/pattern.js";
import { repeatedFailure } from "./patterns/repeated-failure.js";

/** Patterns whose description already names the repetition NO_PROGRESS saw. */
const REPETITIONS: ReadonlySet<Pattern["kind"]> = new Set([
  "repeated-failure",
  "oscillation",
  "repeated-review-point",
]);

/**
 * The pattern of a NO_PROGRESS escalation, made to say which repetition stopped the loop
 * (`stuck on X since iteration N`, `oscillating between A and B`): a more specific pattern
 * keeps its own words and gains the repetition's, so the person sees both the why and the loop.
 */
export function noProgressPattern(
  records: readonly AttemptRecord[],
  pattern: Pattern | null,
): Pattern | null {
  if (pattern !== null && REPETITIONS.has(pattern.kind)) return pattern;
  const repetition = repeatedFailure(records) ?? oscillation(records);
  if (repetition === null) return pattern;
  if (pattern === null) return repetition;
  const words = repetition.description;
  return {
    ...pattern,
    description: `${pattern.description}; ${words.charAt(0).toLowerCase()}${words.slice(1)}`,
  };
}
