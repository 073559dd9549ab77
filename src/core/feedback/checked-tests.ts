import type { Failure } from "./feedback.js";

/**
 * How many tests the failures are checks of, when that is fewer than the failures: the runner's
 * own count (`reported`) is below the failures read and their distinct test names are no more
 * than it — a go test's several `t.Errorf` lines, a Jasmine spec's several failed expectations,
 * each a failure of its own. Null when each failure is a test (or the runner counts none).
 */
export function checkedTests(failures: readonly Failure[], reported: number | null): number | null {
  if (reported === null || reported <= 0 || reported >= failures.length) return null;
  // A failure that names no test is a test of its own.
  const names = new Set(failures.map((failure, index) => failure.test ?? index));
  return names.size <= reported ? reported : null;
}
