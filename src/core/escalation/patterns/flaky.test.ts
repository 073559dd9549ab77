import { describe, expect, it } from "vitest";
import type { Attempt } from "../../iteration-check.js";
import { attemptRecords } from "../attempt-record.js";
import { findPattern } from "../detect-pattern.js";
import { RUNNER_OUTPUTS } from "../../../test-support/runner-outputs.js";
import { flaky } from "./flaky.js";

const PENDING = { status: "pending", feedback: "" } as const;
const CHANGE =
  "--- a/src/cart.js\n+++ b/src/cart.js\n@@ -1,1 +1,1 @@\n-const total = 0;\n+let total = 0;";
/** The same change, re-applied a few lines lower: other positions, same edit. */
const SAME_CHANGE_MOVED = CHANGE.replace("@@ -1,1 +1,1 @@", "@@ -7,1 +7,1 @@");
const OTHER_CHANGE = CHANGE.replace("let total", "var total");

/** An attempt with a real output and a diff. */
function attempt(
  iteration: number,
  output: string,
  status: "pass" | "fail",
  diff: string,
): Attempt {
  return { iteration, testResult: { status, output }, reviewResult: PENDING, diff };
}

describe.each(RUNNER_OUTPUTS)("flaky on $runner output", ({ oneFailure, passing }) => {
  it("finds the same change failing and passing", () => {
    const records = attemptRecords([
      attempt(1, oneFailure, "fail", OTHER_CHANGE),
      attempt(2, oneFailure, "fail", CHANGE),
      attempt(3, passing, "pass", SAME_CHANGE_MOVED),
      attempt(4, oneFailure, "fail", CHANGE),
    ]);
    const pattern = findPattern(records);
    expect(pattern?.kind).toBe("flaky");
    expect(pattern?.description).toBe(
      "Flaky tests: the same change passed in iteration 3 and failed in iterations 2, 4",
    );
  });

  it("is no flakiness when the change differs", () => {
    const records = attemptRecords([
      attempt(1, oneFailure, "fail", OTHER_CHANGE),
      attempt(2, passing, "pass", CHANGE),
    ]);
    expect(flaky(records)).toBeNull();
  });
});

describe("flaky", () => {
  it("needs known diffs", () => {
    const [{ oneFailure, passing }] = RUNNER_OUTPUTS as [(typeof RUNNER_OUTPUTS)[number]];
    const records = attemptRecords([
      { iteration: 1, testResult: { status: "fail", output: oneFailure }, reviewResult: PENDING },
      { iteration: 2, testResult: { status: "pass", output: passing }, reviewResult: PENDING },
    ]);
    expect(flaky(records)).toBeNull();
  });
});
