import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { roundNumber } from "../format-number.js";
import { budgetExhausted } from "./budget-exhausted.js";
import type { VerdictInput } from "./condition.js";
import { Precedence } from "./precedence.js";

const withBudget = (
  spend: number | undefined,
  budgetCap: number | null | undefined,
): VerdictInput => ({
  counters: spend === undefined ? { iteration: 1 } : { iteration: 1, spend },
  policy: budgetCap === undefined ? { maxIterations: 10 } : { maxIterations: 10, budgetCap },
});

describe("BUDGET_EXHAUSTED", () => {
  it("has its code and SPEC slot", () => {
    expect(budgetExhausted.code).toBe("BUDGET_EXHAUSTED");
    expect(budgetExhausted.precedence).toBe(Precedence.BUDGET_EXHAUSTED);
  });

  it("fires at the cap", () => {
    expect(budgetExhausted.check(withBudget(4, 4))).toEqual({
      fired: true,
      reason: "spend 4 reached budget_cap 4",
    });
  });

  it("does not fire below the cap", () => {
    expect(budgetExhausted.check(withBudget(3.99, 4))).toEqual({
      fired: false,
      reason: "spend 3.99 below budget_cap 4",
    });
  });

  it("fires above the cap, quoting spend and cap", () => {
    expect(budgetExhausted.check(withBudget(4.2, 4))).toEqual({
      fired: true,
      reason: "spend 4.2 reached budget_cap 4",
    });
  });

  it("treats a cap of 0 as a real cap: spend 0 fires", () => {
    expect(budgetExhausted.check(withBudget(0, 0))).toEqual({
      fired: true,
      reason: "spend 0 reached budget_cap 0",
    });
  });

  it("reads absent spend as 0", () => {
    expect(budgetExhausted.check(withBudget(undefined, 0)).fired).toBe(true);
    expect(budgetExhausted.check(withBudget(undefined, 0.01))).toEqual({
      fired: false,
      reason: "spend 0 below budget_cap 0.01",
    });
  });

  it.each([null, undefined])("never fires with a %s cap, at any spend", (cap) => {
    for (const spend of [0, 4.2, 1e9, 1e308, Number.MAX_VALUE]) {
      const check = budgetExhausted.check(withBudget(spend, cap));
      expect(check.fired).toBe(false);
      expect(check.reason).toContain("uncapped");
    }
  });

  it("compares spend as displayed: float noise in a summed spend reaches the cap", () => {
    const spend = 0.1 + 0.7; // 0.7999999999999999
    expect(spend).toBeLessThan(0.8);
    expect(budgetExhausted.check(withBudget(spend, 0.8))).toEqual({
      fired: true,
      reason: "spend 0.8 reached budget_cap 0.8",
    });
  });

  it("never fires with a null or absent cap (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
        fc.constantFrom(null, undefined),
        (spend, cap) => {
          expect(budgetExhausted.check(withBudget(spend, cap)).fired).toBe(false);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("fires iff spend >= cap for decimal amounts (property)", () => {
    const cents = fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 100);
    fc.assert(
      fc.property(cents, cents, (spend, cap) => {
        expect(budgetExhausted.check(withBudget(spend, cap)).fired).toBe(spend >= cap);
      }),
      { numRuns: 2_000 },
    );
  });

  it("fires iff the displayed spend >= the displayed cap, for any finite amounts (property)", () => {
    const amount = fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true });
    fc.assert(
      fc.property(amount, amount, (spend, cap) => {
        const check = budgetExhausted.check(withBudget(spend, cap));
        expect(check.fired).toBe(roundNumber(spend) >= roundNumber(cap));
        // A raw comparison can only disagree inside float noise (12 significant digits).
        if (check.fired !== spend >= cap) expect(roundNumber(spend)).toBe(roundNumber(cap));
      }),
      { numRuns: 2_000 },
    );
  });

  describe("with predict_budget", () => {
    const predicting = (iteration: number, spend: number, budgetCap: number): VerdictInput => ({
      counters: { iteration, spend },
      policy: { maxIterations: 10, budgetCap, predictBudget: true },
    });

    it("fires before an attempt the mean cost says the budget left cannot pay, named as predicted", () => {
      expect(budgetExhausted.check(predicting(2, 0.8, 1))).toEqual({
        fired: true,
        reason:
          "predicted: the next attempt is expected to cost 0.4 (the mean of 2 attempts), more than the 0.2 left of budget_cap 1",
      });
    });

    it("holds while the expected cost fits, saying what it expects", () => {
      expect(budgetExhausted.check(predicting(3, 0.6, 1))).toEqual({
        fired: false,
        reason:
          "spend 0.6 below budget_cap 1; the next attempt is expected to cost 0.2 (the mean of 3 attempts)",
      });
    });

    it("never predicts without a cap or before any attempt, and is off by default", () => {
      expect(budgetExhausted.check(predicting(0, 0, 1)).fired).toBe(false);
      expect(
        budgetExhausted.check({
          counters: { iteration: 1, spend: 5 },
          policy: { maxIterations: 10, budgetCap: null, predictBudget: true },
        }).fired,
      ).toBe(false);
      expect(budgetExhausted.check(withBudget(0.9, 1)).fired).toBe(false);
    });

    it("fires exactly when the mean attempt cost is more than what is left (property)", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 50 }),
          fc.integer({ min: 0, max: 10_000 }),
          fc.integer({ min: 1, max: 10_000 }),
          (iteration, spendCents, capCents) => {
            const spend = spendCents / 100;
            const cap = capCents / 100;
            const check = budgetExhausted.check(predicting(iteration, spend, cap));
            const expected =
              roundNumber(spend) >= roundNumber(cap) ||
              roundNumber(spend / iteration) > roundNumber(cap - spend);
            expect(check.fired).toBe(expected);
          },
        ),
      );
    });
  });
});
