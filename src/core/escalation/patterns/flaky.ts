import type { AttemptRecord } from "../attempt-record.js";
import type { FlakyPattern } from "./pattern.js";

/** `iteration 2`, `iterations 1, 3`. */
function iterationList(iterations: readonly number[]): string {
  return `${iterations.length === 1 ? "iteration" : "iterations"} ${iterations.join(", ")}`;
}

/**
 * Two attempts with the same change (equal diff signatures), one passing the tests and one
 * failing them: the outcome depends on the run, not on the code. The change of the latest
 * attempt is checked first, since that is the one a human would approve or fix.
 */
export function flaky(records: readonly AttemptRecord[]): FlakyPattern | null {
  const changes = [...new Set(records.map((record) => record.diffSignature))].reverse();
  for (const change of changes) {
    if (change === null) continue;
    const same = records.filter((record) => record.diffSignature === change);
    const passedIn = same.filter((r) => r.analysis.testStatus === "pass").map((r) => r.iteration);
    const failedIn = same.filter((r) => r.analysis.testStatus === "fail").map((r) => r.iteration);
    if (passedIn.length === 0 || failedIn.length === 0) continue;
    return {
      kind: "flaky",
      description: `Flaky tests: the same change passed in ${iterationList(passedIn)} and failed in ${iterationList(failedIn)}`,
      iterations: same.map((record) => record.iteration),
      passedIn,
      failedIn,
    };
  }
  return null;
}
