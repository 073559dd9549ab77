import type { ReviewPoint } from "../review-point.js";

const APP = "/tmp/loopgate-reviews/app/src";

/** A point of the real ESLint run in fixtures/reviews (its project copied to `APP`). */
function at(
  file: string,
  line: number,
  priority: ReviewPoint["priority"],
  label: string | null,
  message: string,
): ReviewPoint {
  return { path: `${APP}/${file}`, line, priority, message, label };
}

/**
 * What one real ESLint 9 run says, whichever format wrote it (SARIF or rdjson): the parse error
 * first, then each problem in file order; the suppressed `==` is not among them.
 */
export const ESLINT_REAL_POINTS: readonly ReviewPoint[] = [
  at("broken.js", 2, "high", null, "Parsing error: Unexpected token ;"),
  at("cart.js", 5, "high", "no-unused-vars", "'discount' is assigned a value but never used."),
  at("cart.js", 7, "high", "eqeqeq", "Expected '===' and instead saw '=='."),
  at("cart.js", 10, "medium", "no-console", "Unexpected console statement."),
  at("cart.js", 12, "high", "no-unreachable", "Unreachable code."),
  at("cart.js", 16, "medium", "prefer-const", "'name' is never reassigned. Use 'const' instead."),
  at("cart.js", 17, "high", "no-undef", "'currency' is not defined."),
  at("format.js", 4, "high", "eqeqeq", "Expected '===' and instead saw '=='."),
];
