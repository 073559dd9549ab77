import { describe, expect, expectTypeOf, it } from "vitest";
import { builtinConditions } from "./builtin-conditions.js";
import { defineCondition, fired, held, type Condition, type VerdictInput } from "./condition.js";
import { Precedence, type BuiltinConditionCode } from "./precedence.js";

const SPEC_ORDER = [
  "APPROVAL_GATE",
  "STOP_SCORE_REACHED",
  "BUDGET_EXHAUSTED",
  "MAX_ITERATIONS",
  "TIME_LIMIT",
  "NO_PROGRESS",
] as const;

describe("fired / held", () => {
  it("build the two check outcomes, each with its reason", () => {
    expect(fired("x reached y")).toEqual({ fired: true, reason: "x reached y" });
    expect(held("x below y")).toEqual({ fired: false, reason: "x below y" });
  });
});

describe("defineCondition", () => {
  it("keeps code, precedence and check, frozen", () => {
    const check = ({ counters }: VerdictInput) =>
      counters.iteration > 1 ? fired("late") : held("early");
    const condition = defineCondition("LATE", 450, check);
    expect(condition).toEqual({ code: "LATE", precedence: 450, check });
    expect(Object.isFrozen(condition)).toBe(true);
    expect(condition.check({ counters: { iteration: 2 }, policy: { maxIterations: 5 } })).toEqual({
      fired: true,
      reason: "late",
    });
    expectTypeOf(condition).toEqualTypeOf<Condition<"LATE", VerdictInput>>();
  });

  it("types the check's input as the extended input it was given", () => {
    interface Extra extends VerdictInput {
      readonly extra: number;
    }
    const condition = defineCondition("EXTRA", 1, ({ extra }: Extra) =>
      extra > 0 ? fired("e") : held("n"),
    );
    expectTypeOf(condition.code).toEqualTypeOf<"EXTRA">();
    expectTypeOf(condition.check).parameter(0).toEqualTypeOf<Extra>();
  });
});

describe("Precedence and builtinConditions", () => {
  it("orders the six built-ins as SPEC §2 does, leaving gaps for custom conditions", () => {
    const slots = SPEC_ORDER.map((code) => Precedence[code]);
    expect(Object.keys(Precedence)).toEqual([...SPEC_ORDER]);
    slots.slice(1).forEach((slot, i) => expect(slot - (slots[i] ?? slot)).toBeGreaterThan(1));
    expect(Object.isFrozen(Precedence)).toBe(true);
    expectTypeOf<BuiltinConditionCode>().toEqualTypeOf<(typeof SPEC_ORDER)[number]>();
  });

  it("lists the six built-ins in SPEC order with their own slots", () => {
    expect(builtinConditions.map((condition) => condition.code)).toEqual([...SPEC_ORDER]);
    for (const condition of builtinConditions) {
      expect(condition.precedence).toBe(Precedence[condition.code]);
    }
    expect(Object.isFrozen(builtinConditions)).toBe(true);
  });
});
