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
        // The assertion sits in a page object's method: the test's line that called it says which.
        file: "tests/cart.spec.ts",
        line: 15,
        expected: '"Total: 4"',
        received: '"Total: 3"',
        message: "Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)",
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
  it("places an assertion made in a support helper at the test's call (swup)", () => {
    const swup = `Running 1 test using 1 worker

  1) [chromium] › tests/functional/cache.spec.ts:15:2 › cache › caches pages ───────────────────────

    Error: expect(received).toBeTruthy()

    Received: undefined

       at ../support/swup.ts:28

      26 | export async function expectSwupToHaveCacheEntry(page: Page, url: string) {
      27 | \tconst entry = await page.evaluate((url) => window._swup.cache.get(url), url);
    > 28 | \texpect(entry).toBeTruthy();
         | \t              ^
      29 | \texpect(entry).toHaveProperty('url', url);
        at expectSwupToHaveCacheEntry (/tmp/rw/swup/tests/support/swup.ts:28:16)
        at /tmp/rw/swup/tests/functional/cache.spec.ts:18:3

  1 failed
`;
    expect(playwrightParser.parse(swup)).toEqual([
      failureOf({
        test: "cache › caches pages",
        file: "/tmp/rw/swup/tests/functional/cache.spec.ts",
        line: 18,
        received: "undefined",
        message: "Error: expect(received).toBeTruthy()",
      }),
    ]);
  });
});
