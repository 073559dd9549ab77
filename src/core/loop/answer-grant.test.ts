import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  answerGrant,
  defaultBudgetGrant,
  withBudgetGrant,
  type GrantBasis,
} from "./answer-grant.js";

const basis = (changes: Partial<GrantBasis> = {}): GrantBasis => ({
  policy: { extraIterations: 2, extraBudget: 0, extraTimeMs: 0 },
  budgetCap: 1,
  spend: 1.2,
  attempts: 3,
  reason: "BUDGET_EXHAUSTED",
  ...changes,
});

describe("defaultBudgetGrant", () => {
  it("is the mean attempt cost times the attempts granted, rounded up to a cent", () => {
    expect(defaultBudgetGrant(basis(), 2)).toBe(0.8);
    expect(defaultBudgetGrant(basis({ spend: 1, attempts: 3 }), 2)).toBe(0.67);
  });

  it("is on_answer.extra_budget when set, and nothing unless the budget ran out", () => {
    const policy = { extraIterations: 2, extraBudget: 5, extraTimeMs: 0 };
    expect(defaultBudgetGrant(basis({ policy }), 2)).toBe(5);
    expect(defaultBudgetGrant(basis({ reason: "MAX_ITERATIONS" }), 2)).toBe(0);
    expect(defaultBudgetGrant(basis({ budgetCap: null }), 2)).toBe(0);
  });

  it("always covers the expected cost of the attempts it buys", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 9 }),
        (attempts, cents, granted) => {
          const spend = cents / 100;
          const grant = defaultBudgetGrant(basis({ spend, attempts }), granted);
          expect(grant).toBeGreaterThanOrEqual((spend / attempts) * granted - 1e-9);
          expect(grant).toBeLessThan((spend / attempts) * granted + 0.01 + 1e-9);
        },
      ),
    );
  });
});

describe("answerGrant", () => {
  it("takes the answer's own extra room over the policy, the budget following the attempts", () => {
    const option = { kind: "option" as const, option: 1 };
    expect(answerGrant(basis(), option)).toEqual({ iterations: 2, budget: 0.8, timeMs: 0 });
    expect(answerGrant(basis(), { ...option, extraIterations: 5 })).toEqual({
      iterations: 5,
      budget: 2,
      timeMs: 0,
    });
    expect(answerGrant(basis(), { kind: "text", text: "go", extraBudget: 0 })).toEqual({
      iterations: 2,
      budget: 0,
      timeMs: 0,
    });
  });
});

describe("withBudgetGrant", () => {
  it("names the budget added in the continue options only", () => {
    const options = [
      { id: 1, label: "Continue with guidance (raise the budget)", effect: "continue" as const },
      { id: 2, label: "Abort this task", effect: "abort" as const },
    ];
    expect(withBudgetGrant(options, basis()).map((option) => option.label)).toEqual([
      "Continue with guidance (raise the budget) [adds 0.8 to the budget for 2 more attempts]",
      "Abort this task",
    ]);
    expect(withBudgetGrant(options, basis({ reason: "MAX_ITERATIONS" }))).toEqual(options);
  });
});
