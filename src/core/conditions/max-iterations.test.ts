import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { VerdictInput } from "./condition.js";
import { maxIterations } from "./max-iterations.js";
import { Precedence } from "./precedence.js";

const at = (iteration: number, cap: number): VerdictInput => ({
  counters: { iteration },
  policy: { maxIterations: cap },
});

describe("MAX_ITERATIONS", () => {
  it("has its code and SPEC slot", () => {
    expect(maxIterations.code).toBe("MAX_ITERATIONS");
    expect(maxIterations.precedence).toBe(Precedence.MAX_ITERATIONS);
  });

  it("fires at the cap: iteration 3 of max_iterations 3", () => {
    expect(maxIterations.check(at(3, 3))).toEqual({
      fired: true,
      reason: "iteration 3 reached max_iterations 3",
    });
  });

  it("does not fire one below the cap: iteration 2 of 3", () => {
    expect(maxIterations.check(at(2, 3))).toEqual({
      fired: false,
      reason: "iteration 2 below max_iterations 3",
    });
  });

  it("fires one above the cap: iteration 4 of 3", () => {
    expect(maxIterations.check(at(4, 3))).toEqual({
      fired: true,
      reason: "iteration 4 reached max_iterations 3",
    });
  });

  it("does not fire before the first pass (iteration 0) with a cap of 1, fires after it", () => {
    expect(maxIterations.check(at(0, 1)).fired).toBe(false);
    expect(maxIterations.check(at(1, 1)).fired).toBe(true);
  });

  it("fires iff iteration >= max_iterations (property)", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000 }), fc.integer({ min: 1, max: 1_000 }), (iteration, cap) => {
        expect(maxIterations.check(at(iteration, cap)).fired).toBe(iteration >= cap);
      }),
      { numRuns: 2_000 },
    );
  });
});
