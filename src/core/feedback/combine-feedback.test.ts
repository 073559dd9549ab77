import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength } from "./clean/code-points.js";
import { combineFeedback } from "./combine-feedback.js";
import type { Feedback, Priority } from "./feedback.js";
import { reviewFeedback } from "./review-feedback.js";
import { testFeedback } from "./test-feedback.js";
import vitestBasic from "./test-fixtures/vitest-basic.txt?raw";

const total = (feedback: Feedback): number =>
  codePointLength(feedback.summary) +
  feedback.actionableItems.reduce((sum, item) => sum + codePointLength(item), 0);

/** A side that gives the same feedback whatever the room: the combination must cut it itself. */
const feedback = (summary: string, items: string[], priority: Priority) => (): Feedback => ({
  summary,
  actionableItems: items,
  priority,
});

describe("combineFeedback", () => {
  it("puts test items first, names both in the summary, takes the higher priority", () => {
    const combined = combineFeedback(
      feedback("Test failed: expected 1, got 2", ["a.ts:1 adds: expected 1, got 2"], "high"),
      feedback("Review rejected: rename x", ["rename x"], "low"),
      500,
    );
    expect(combined).toEqual({
      summary: "Test failed: expected 1, got 2; Review rejected: rename x",
      actionableItems: ["a.ts:1 adds: expected 1, got 2", "rename x"],
      priority: "high",
    });
  });

  it.each([
    ["low", "low", "low"],
    ["low", "medium", "medium"],
    ["medium", "high", "high"],
    ["high", "low", "high"],
  ] as const)("takes the higher of %s and %s", (a, b, expected) => {
    expect(combineFeedback(feedback("t", [], a), feedback("r", [], b), 100).priority).toBe(
      expected,
    );
  });

  it("keeps the first review point when test items would crowd it out", () => {
    const tests = (maxLength: number): Feedback => testFeedback(vitestBasic, { maxLength });
    const review = (maxLength: number): Feedback =>
      reviewFeedback("- blocking: jwt.sign omits userId\n- nit: rename tok", { maxLength });
    const combined = combineFeedback(tests, review, 300);
    expect(total(combined)).toBeLessThanOrEqual(300);
    // The test items are fitted again to their share, by their own rules: places first, no cut names.
    expect(combined.actionableItems[0]).toMatch(/^src\/auth\/login\.test\.ts:10\b/);
    expect(combined.actionableItems.join("\n")).not.toContain("…\n");
    expect(combined.actionableItems.some((item) => item.startsWith("blocking: jwt.sign"))).toBe(
      true,
    );
    expect(combined.summary).toContain("Test failed");
    expect(combined.summary).toContain("Review rejected");
  });

  it("shares a tight cap between the first item of each side", () => {
    const combined = combineFeedback(
      feedback("Test failed: x", ["t".repeat(300)], "high"),
      feedback("Review rejected: y", ["r".repeat(300)], "medium"),
      120,
    );
    expect(total(combined)).toBeLessThanOrEqual(120);
    expect(combined.actionableItems).toHaveLength(2);
    expect(combined.actionableItems[1]?.startsWith("rrr")).toBe(true);
  });

  it("never exceeds the cap", () => {
    const text = fc.string({ unit: "binary", maxLength: 120 });
    const side = fc.record({
      summary: text,
      actionableItems: fc.array(text, { maxLength: 6 }),
      priority: fc.constantFrom<Priority>("high", "medium", "low"),
    });
    fc.assert(
      fc.property(side, side, fc.integer({ min: 1, max: 600 }), (test, review, maxLength) => {
        const combined = combineFeedback(
          () => test,
          () => review,
          maxLength,
        );
        expect(total(combined)).toBeLessThanOrEqual(maxLength);
      }),
      { numRuns: 2_000 },
    );
  });
});
