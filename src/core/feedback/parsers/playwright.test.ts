import { describe, expect, it } from "vitest";
import { playwrightParser } from "./playwright.js";
import { failureOf } from "../failure-of.js";
import { cleanOutput } from "../test-feedback.js";

// Two projects, a retry, and the message forms of Playwright before 1.50 (`Expected string:`).
const output = `
Running 4 tests using 2 workers

  1) [chromium] › tests/cart.spec.ts:14:3 › cart › shows the total ─────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)

    Locator: locator('#total')
    Expected string: "Total: 4"
    Received string: "Total: 3"

      14 |   test("shows the total", async ({ page }) => {
    > 15 |     await expect(page.locator("#total")).toHaveText("Total: 4");
         |                                          ^
        at /ci/app/tests/cart.spec.ts:15:42

    Retry #1 ───────────────────────────────────────────────────────────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)

  2) [firefox] › tests/cart.spec.ts:14:3 › cart › shows the total ──────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)

    Expected string: "Total: 4"
    Received string: "Total: 3"
        at CartPage.total (/ci/app/tests/pages/cart.ts:9:5)
        at /ci/app/tests/cart.spec.ts:15:20

  3) [firefox] › tests/login.spec.ts:3:5 › waits for the session ───────────────────────────

    Test timeout of 30000ms exceeded.

  3 failed
    [chromium] › tests/cart.spec.ts:14:3 › cart › shows the total ──────────────────────────
    [firefox] › tests/cart.spec.ts:14:3 › cart › shows the total ───────────────────────────
    [firefox] › tests/login.spec.ts:3:5 › waits for the session ────────────────────────────
  1 passed (12.0s)
`;

describe("playwrightParser", () => {
  it("reads each header's block, naming the project when the run has several", () => {
    expect(playwrightParser.detect(output)).toBe(true);
    expect(playwrightParser.parse(cleanOutput(output))).toEqual([
      failureOf({
        test: "[chromium] › cart › shows the total",
        file: "tests/cart.spec.ts",
        line: 15,
        expected: '"Total: 4"',
        received: '"Total: 3"',
        message: "Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)",
      }),
      failureOf({
        test: "[firefox] › cart › shows the total",
        file: "tests/pages/cart.ts",
        line: 9,
        expected: '"Total: 4"',
        received: '"Total: 3"',
        message: "Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)",
        testLocation: { file: "tests/cart.spec.ts", line: 15 },
      }),
      failureOf({
        test: "[firefox] › waits for the session",
        file: "tests/login.spec.ts",
        line: 3,
        message: "Test timeout of 30000ms exceeded.",
      }),
    ]);
    expect(playwrightParser.reportedFailures?.(output)).toBe(3);
  });

  it("does not claim Jest's › names", () => {
    expect(playwrightParser.detect("  ● cart › sums\nTests: 1 failed, 1 total\n")).toBe(false);
  });
});
