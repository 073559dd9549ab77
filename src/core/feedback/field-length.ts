import { truncateCodePoints } from "./clean/code-points.js";

/** Longest test name, value or message a failure keeps: a failure is a gist, not a dump of the log. */
export const MAX_FIELD_LENGTH = 1000;

/** The two sides of a comparison a parser read, each cut to `MAX_FIELD_LENGTH`. */
export function cappedValues(
  expected: string,
  received: string,
): { expected: string; received: string } {
  return {
    expected: truncateCodePoints(expected, MAX_FIELD_LENGTH),
    received: truncateCodePoints(received, MAX_FIELD_LENGTH),
  };
}
