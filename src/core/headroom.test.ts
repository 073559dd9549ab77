import { describe, expect, expectTypeOf, it } from "vitest";
import fc from "fast-check";
import type { VerdictInput } from "./conditions/condition.js";
import { headroom, type Headroom } from "./headroom.js";

const room = (
  iteration: number,
  maxIterations: number,
  spend?: number,
  budgetCap?: number | null,
): Headroom =>
  headroom({
    counters: spend === undefined ? { iteration } : { iteration, spend },
    policy: budgetCap === undefined ? { maxIterations } : { maxIterations, budgetCap },
  });

describe("headroom", () => {
  it("counts the iterations left", () => {
    expect(room(0, 3).iterationsLeft).toBe(3);
    expect(room(2, 3).iterationsLeft).toBe(1);
    expect(room(3, 3).iterationsLeft).toBe(0);
  });

  it("never reports fewer than 0 iterations left", () => {
    expect(room(7, 3).iterationsLeft).toBe(0);
  });

  it("reports the budget left, float noise rounded (cap 5, spend 4.2 → 0.8)", () => {
    expect(5 - 4.2).not.toBe(0.8);
    expect(room(1, 3, 4.2, 5)).toEqual({ iterationsLeft: 2, budgetLeft: 0.8 });
  });

  it("reports no budget left once the cap is reached, never below 0", () => {
    expect(room(1, 3, 4, 4).budgetLeft).toBe(0);
    expect(room(1, 3, 4.2, 4).budgetLeft).toBe(0);
    expect(room(1, 3, 0, 0).budgetLeft).toBe(0);
    expect(room(1, 3, 0.1 + 0.7, 0.8).budgetLeft).toBe(0);
  });

  it("reads absent spend as 0", () => {
    expect(room(1, 3, undefined, 2.5).budgetLeft).toBe(2.5);
  });

  it.each([null, undefined])("reports budget_left null when the cap is %s", (cap) => {
    expect(room(1, 3, 1e308, cap)).toEqual({ iterationsLeft: 2, budgetLeft: null });
  });

  it("has the documented type", () => {
    expectTypeOf(room(0, 1)).toEqualTypeOf<Headroom>();
    expectTypeOf<Headroom["budgetLeft"]>().toEqualTypeOf<number | null>();
  });

  it("is never negative, and null exactly when uncapped (property)", () => {
    const input: fc.Arbitrary<VerdictInput> = fc.record({
      counters: fc.record(
        {
          iteration: fc.nat({ max: 1_000 }),
          spend: fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
        },
        { requiredKeys: ["iteration"] },
      ),
      policy: fc.record(
        {
          maxIterations: fc.integer({ min: 1, max: 1_000 }),
          budgetCap: fc.option(fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true })),
        },
        { requiredKeys: ["maxIterations"] },
      ),
    });
    fc.assert(
      fc.property(input, (value) => {
        const { iterationsLeft, budgetLeft } = headroom(value);
        expect(iterationsLeft).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(iterationsLeft)).toBe(true);
        expect(budgetLeft === null).toBe((value.policy.budgetCap ?? null) === null);
        if (budgetLeft !== null) {
          expect(budgetLeft).toBeGreaterThanOrEqual(0);
          expect(Object.is(budgetLeft, -0)).toBe(false);
          expect(Number.isFinite(budgetLeft)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
