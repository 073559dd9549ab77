import { describe, expect, expectTypeOf, it } from "vitest";
import fc from "fast-check";
import type { Counters } from "./counters.js";
import type { Policy } from "./policy.js";
import { builtinConditions } from "./conditions/builtin-conditions.js";
import { defineCondition, fired, held, type VerdictInput } from "./conditions/condition.js";
import { Precedence, type BuiltinConditionCode } from "./conditions/precedence.js";
import { roundNumber } from "./format-number.js";
import { byPrecedence, evaluate, verdict, verdictOf, type Verdict } from "./verdict.js";

const SPEC_ORDER: readonly BuiltinConditionCode[] = [
  "APPROVAL_GATE",
  "STOP_SCORE_REACHED",
  "BUDGET_EXHAUSTED",
  "MAX_ITERATIONS",
  "TIME_LIMIT",
  "NO_PROGRESS",
];

/** Nothing fires here: one pass done out of ten, no other limit set. */
const QUIET: VerdictInput = { counters: { iteration: 1 }, policy: { maxIterations: 10 } };

interface Trigger {
  readonly counters: Partial<Counters>;
  readonly policy: Partial<Policy>;
  readonly reason: string;
}

/** For each condition, the least that makes it fire on top of QUIET, and the reason it gives. */
const TRIGGERS: Readonly<Record<BuiltinConditionCode, Trigger>> = {
  APPROVAL_GATE: {
    counters: { approval: { decision: "approve", by: "alice" } },
    policy: {},
    reason: "approval approve by alice",
  },
  STOP_SCORE_REACHED: {
    counters: { score: 0.95 },
    policy: { stopScore: 0.9 },
    reason: "score 0.95 reached stop_score 0.9",
  },
  BUDGET_EXHAUSTED: {
    counters: { spend: 4.2 },
    policy: { budgetCap: 4 },
    reason: "spend 4.2 reached budget_cap 4",
  },
  MAX_ITERATIONS: {
    counters: { iteration: 3 },
    policy: { maxIterations: 3 },
    reason: "iteration 3 reached max_iterations 3",
  },
  TIME_LIMIT: {
    counters: { elapsedMs: 120_000 },
    policy: { timeLimitMs: 60_000 },
    reason: "elapsed_ms 120000 reached time_limit_ms 60000",
  },
  NO_PROGRESS: {
    counters: { signatures: ["a1f", "a1f", "a1f"] },
    policy: { noProgress: { window: 3, minDelta: 0.01 } },
    reason: 'the last 3 passes have the same signature "a1f"',
  },
};

function triggering(codes: readonly BuiltinConditionCode[]): VerdictInput {
  let counters: Counters = QUIET.counters;
  let policy: Policy = QUIET.policy;
  for (const code of codes) {
    counters = { ...counters, ...TRIGGERS[code].counters };
    policy = { ...policy, ...TRIGGERS[code].policy };
  }
  return { counters, policy };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("verdict: nothing fired", () => {
  it("states CONTINUE explicitly, with headroom", () => {
    const result = verdict(QUIET);
    expect(result).toStrictEqual({
      stop: false,
      condition: "CONTINUE",
      fired: [],
      reasons: {},
      headroom: { iterationsLeft: 9, budgetLeft: null },
    });
    expect(Object.keys(result)).toEqual(["stop", "condition", "fired", "reasons", "headroom"]);
  });

  it("continues right below every threshold at once", () => {
    const result = verdict({
      counters: {
        iteration: 2,
        spend: 3.99,
        score: 0.89,
        approval: null,
        scores: [0.5, 0.6, 0.7, 0.8],
        signatures: ["a", "b", "c"],
        elapsedMs: 59_999,
      },
      policy: {
        maxIterations: 3,
        budgetCap: 4,
        stopScore: 0.9,
        noProgress: { window: 3, minDelta: 0.01 },
        timeLimitMs: 60_000,
      },
    });
    expect(result).toStrictEqual({
      stop: false,
      condition: "CONTINUE",
      fired: [],
      reasons: {},
      headroom: { iterationsLeft: 1, budgetLeft: 0.01 },
    });
  });
});

describe("verdict: one condition", () => {
  it.each(SPEC_ORDER)("%s alone decides, with its reason", (code) => {
    expect(verdict(triggering([code]))).toMatchObject({
      stop: true,
      condition: code,
      fired: [code],
      reasons: { [code]: TRIGGERS[code].reason },
    });
    expect(Object.keys(verdict(triggering([code])).reasons)).toEqual([code]);
  });

  it("reproduces the SPEC §2 example", () => {
    const result = verdict({
      counters: { iteration: 3, spend: 4.2, score: 0.82, approval: null, scores: [0.7, 0.8, 0.82] },
      policy: {
        maxIterations: 3,
        budgetCap: 4,
        stopScore: 0.9,
        noProgress: { window: 3, minDelta: 0.01 },
      },
    });
    expect(result).toStrictEqual({
      stop: true,
      condition: "BUDGET_EXHAUSTED",
      fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
      reasons: {
        BUDGET_EXHAUSTED: "spend 4.2 reached budget_cap 4",
        MAX_ITERATIONS: "iteration 3 reached max_iterations 3",
      },
      headroom: { iterationsLeft: 0, budgetLeft: 0 },
    });
  });
});

const PAIRS = SPEC_ORDER.flatMap((first, i) =>
  SPEC_ORDER.slice(i + 1).map((second) => [first, second] as const),
);

describe("verdict: two conditions at once", () => {
  it("covers all 15 pairs", () => {
    expect(PAIRS).toHaveLength(15);
    expect(new Set(PAIRS.map((pair) => pair.join("+"))).size).toBe(15);
  });

  it.each(PAIRS)("%s and %s: the higher precedence decides, both are listed", (first, second) => {
    // Applying the triggers in reverse order must not change anything.
    for (const input of [triggering([first, second]), triggering([second, first])]) {
      const result = verdict(input);
      expect(result.stop).toBe(true);
      expect(result.condition).toBe(first);
      expect(result.fired).toEqual([first, second]);
      expect(result.reasons).toStrictEqual({
        [first]: TRIGGERS[first].reason,
        [second]: TRIGGERS[second].reason,
      });
    }
  });

  it("all six at once: APPROVAL_GATE decides, all six listed in SPEC order with their reasons", () => {
    const result = verdict(triggering([...SPEC_ORDER].reverse()));
    expect(result).toStrictEqual({
      stop: true,
      condition: "APPROVAL_GATE",
      fired: [...SPEC_ORDER],
      reasons: Object.fromEntries(SPEC_ORDER.map((code) => [code, TRIGGERS[code].reason])),
      headroom: { iterationsLeft: 0, budgetLeft: 0 },
    });
  });

  it("a rejection stops the loop too, ahead of a reached stop_score", () => {
    const result = verdict({
      counters: {
        iteration: 1,
        score: 1,
        approval: { decision: "reject", note: "wrong approach" },
      },
      policy: { maxIterations: 5, stopScore: 0.9 },
    });
    expect(result.condition).toBe("APPROVAL_GATE");
    expect(result.fired).toEqual(["APPROVAL_GATE", "STOP_SCORE_REACHED"]);
    expect(result.reasons).toMatchObject({ APPROVAL_GATE: "approval reject: wrong approach" });
  });
});

describe("verdict: null and absent budget_cap", () => {
  it.each([null, undefined])("a %s cap never fires, at any spend", (cap) => {
    for (const spend of [0, 4.2, 1e9, 1e308, Number.MAX_VALUE]) {
      const policy: Policy =
        cap === undefined ? { maxIterations: 10 } : { maxIterations: 10, budgetCap: cap };
      const result = verdict({ counters: { iteration: 1, spend }, policy });
      expect(result.condition).toBe("CONTINUE");
      expect(result.headroom.budgetLeft).toBeNull();
    }
  });

  it("a null or absent cap never fires, whatever else holds (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
        fc.constantFrom(null, undefined),
        fc.nat({ max: 20 }),
        (spend, cap, iteration) => {
          const policy: Policy =
            cap === undefined ? { maxIterations: 10 } : { maxIterations: 10, budgetCap: cap };
          const result = verdict({ counters: { iteration, spend }, policy });
          expect(result.fired).not.toContain("BUDGET_EXHAUSTED");
          expect(result.headroom.budgetLeft).toBeNull();
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("verdict: custom conditions", () => {
  interface TokenInput extends VerdictInput {
    readonly tokens: { readonly used: number; readonly cap: number };
  }

  const tokensExhausted = defineCondition(
    "TOKENS_EXHAUSTED",
    Precedence.BUDGET_EXHAUSTED + 50,
    ({ tokens }: TokenInput) =>
      tokens.used >= tokens.cap
        ? fired(`tokens ${tokens.used} reached token_cap ${tokens.cap}`)
        : held(`tokens ${tokens.used} below token_cap ${tokens.cap}`),
  );
  const conditions = [...builtinConditions, tokensExhausted];

  const withTokens = (codes: readonly BuiltinConditionCode[], used: number): TokenInput => ({
    ...triggering(codes),
    tokens: { used, cap: 1_000 },
  });

  it("types the verdict's condition as the union of codes plus CONTINUE", () => {
    const result = verdict(withTokens([], 0), conditions);
    expectTypeOf(result).toEqualTypeOf<Verdict<BuiltinConditionCode | "TOKENS_EXHAUSTED">>();
    expectTypeOf(result.condition).toEqualTypeOf<
      BuiltinConditionCode | "TOKENS_EXHAUSTED" | "CONTINUE"
    >();
    expectTypeOf(verdict(QUIET).condition).toEqualTypeOf<BuiltinConditionCode | "CONTINUE">();
    if (result.stop) {
      expectTypeOf(result.fired).toEqualTypeOf<
        readonly (BuiltinConditionCode | "TOKENS_EXHAUSTED")[]
      >();
    } else {
      expectTypeOf(result.fired).toEqualTypeOf<
        readonly (BuiltinConditionCode | "TOKENS_EXHAUSTED")[]
      >();
    }
  });

  it("does not fire below its threshold", () => {
    expect(verdict(withTokens([], 999), conditions).condition).toBe("CONTINUE");
  });

  it("decides alone with its own code and reason", () => {
    expect(verdict(withTokens([], 1_000), conditions)).toStrictEqual({
      stop: true,
      condition: "TOKENS_EXHAUSTED",
      fired: ["TOKENS_EXHAUSTED"],
      reasons: { TOKENS_EXHAUSTED: "tokens 1000 reached token_cap 1000" },
      headroom: { iterationsLeft: 9, budgetLeft: null },
    });
  });

  it("takes its slot between BUDGET_EXHAUSTED and MAX_ITERATIONS", () => {
    const result = verdict(withTokens(SPEC_ORDER, 1_500), conditions);
    expect(result.fired).toEqual([
      "APPROVAL_GATE",
      "STOP_SCORE_REACHED",
      "BUDGET_EXHAUSTED",
      "TOKENS_EXHAUSTED",
      "MAX_ITERATIONS",
      "TIME_LIMIT",
      "NO_PROGRESS",
    ]);
    expect(result.reasons).toMatchObject({
      TOKENS_EXHAUSTED: "tokens 1500 reached token_cap 1000",
    });

    expect(verdict(withTokens(["MAX_ITERATIONS", "NO_PROGRESS"], 1_500), conditions)).toMatchObject(
      {
        condition: "TOKENS_EXHAUSTED",
        fired: ["TOKENS_EXHAUSTED", "MAX_ITERATIONS", "NO_PROGRESS"],
      },
    );
    expect(verdict(withTokens(["BUDGET_EXHAUSTED"], 1_500), conditions)).toMatchObject({
      condition: "BUDGET_EXHAUSTED",
      fired: ["BUDGET_EXHAUSTED", "TOKENS_EXHAUSTED"],
    });
  });

  it("orders by precedence, not by the position in the list", () => {
    const reversed = [tokensExhausted, ...[...builtinConditions].reverse()];
    expect(verdict(withTokens(SPEC_ORDER, 1_500), reversed)).toStrictEqual(
      verdict(withTokens(SPEC_ORDER, 1_500), conditions),
    );
  });

  it("keeps the given order between conditions of equal precedence", () => {
    const always = (code: string) =>
      defineCondition(code, Precedence.MAX_ITERATIONS, () => fired(code));
    const first = always("FIRST");
    const second = always("SECOND");
    const input = triggering(["MAX_ITERATIONS"]);
    expect(verdict(input, [...builtinConditions, first, second]).fired).toEqual([
      "MAX_ITERATIONS",
      "FIRST",
      "SECOND",
    ]);
    expect(verdict(input, [second, first, ...builtinConditions]).fired).toEqual([
      "SECOND",
      "FIRST",
      "MAX_ITERATIONS",
    ]);
  });

  it("evaluates only the conditions it is given", () => {
    const input = triggering(SPEC_ORDER);
    expect(verdict(input, []).condition).toBe("CONTINUE");
    expect(verdict(input, [builtinConditions[3]]).fired).toEqual(["MAX_ITERATIONS"]);
  });

  it("keeps the first reason when two conditions share a code", () => {
    const a = defineCondition("DUP", 1, () => fired("first"));
    const b = defineCondition("DUP", 2, () => fired("second"));
    expect(verdict(QUIET, [b, a])).toMatchObject({
      fired: ["DUP", "DUP"],
      reasons: { DUP: "first" },
    });
  });
});

describe("byPrecedence / evaluate / verdictOf", () => {
  it("byPrecedence sorts stably without mutating its argument", () => {
    const a = defineCondition("A", 2, () => held("a"));
    const b = defineCondition("B", 1, () => held("b"));
    const c = defineCondition("C", 2, () => held("c"));
    const given = [a, b, c];
    expect(byPrecedence(given).map((x) => x.code)).toEqual(["B", "A", "C"]);
    expect(given.map((x) => x.code)).toEqual(["A", "B", "C"]);
  });

  it("evaluate reports every condition, fired or held, in precedence order", () => {
    const evaluations = evaluate(
      triggering(["BUDGET_EXHAUSTED"]),
      [...builtinConditions].reverse(),
    );
    expect(evaluations.map((e) => e.code)).toEqual([...SPEC_ORDER]);
    expect(evaluations.map((e) => e.check.fired)).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    expect(evaluations[2]?.check.reason).toBe("spend 4.2 reached budget_cap 4");
    expect(evaluations[3]?.check.reason).toBe("iteration 1 below max_iterations 10");
  });

  it("verdictOf turns evaluations into a verdict carrying the given headroom", () => {
    const room = { iterationsLeft: 2, budgetLeft: 0.5 };
    expect(verdictOf([], room)).toStrictEqual({
      stop: false,
      condition: "CONTINUE",
      fired: [],
      reasons: {},
      headroom: room,
    });
    expect(
      verdictOf(
        [
          { code: "X", check: held("x") },
          { code: "Y", check: fired("y") },
          { code: "Z", check: fired("z") },
        ],
        room,
      ),
    ).toStrictEqual({
      stop: true,
      condition: "Y",
      fired: ["Y", "Z"],
      reasons: { Y: "y", Z: "z" },
      headroom: room,
    });
  });
});

describe("verdict: purity", () => {
  it("does not mutate its input", () => {
    const input = deepFreeze(triggering(SPEC_ORDER));
    const copy = structuredClone(input);
    expect(() => verdict(input)).not.toThrow();
    expect(input).toStrictEqual(copy);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const amount = fc.oneof(
  fc.integer({ min: 0, max: 1_000 }).map((n) => n / 100),
  fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
);
const signature = fc.constantFrom("a", "b", "c");

const countersArb: fc.Arbitrary<Counters> = fc.record(
  {
    iteration: fc.nat({ max: 12 }),
    spend: amount,
    score: fc.option(fc.integer({ min: 0, max: 100 }).map((n) => n / 100)),
    approval: fc.option(
      fc.record(
        {
          decision: fc.constantFrom("approve" as const, "reject" as const),
          by: fc.string(),
          note: fc.string(),
        },
        { requiredKeys: ["decision"] },
      ),
      { freq: 4 },
    ),
    scores: fc.array(
      fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
      { maxLength: 8 },
    ),
    signatures: fc.array(signature, { maxLength: 8 }),
    elapsedMs: fc.nat({ max: 100_000 }),
  },
  { requiredKeys: ["iteration"] },
);

const policyArb: fc.Arbitrary<Policy> = fc.record(
  {
    maxIterations: fc.integer({ min: 1, max: 12 }),
    budgetCap: fc.option(amount),
    stopScore: fc.option(fc.integer({ min: 0, max: 100 }).map((n) => n / 100)),
    noProgress: fc.option(
      fc.record(
        {
          window: fc.integer({ min: 2, max: 5 }),
          minDelta: fc.integer({ min: 0, max: 10 }).map((n) => n / 100),
        },
        { requiredKeys: [] },
      ),
    ),
    timeLimitMs: fc.option(fc.nat({ max: 100_000 })),
  },
  { requiredKeys: ["maxIterations"] },
);

const inputArb: fc.Arbitrary<VerdictInput> = fc.record({
  counters: countersArb,
  policy: policyArb,
});
const RUNS = { numRuns: 2_000 };

/** `fired` as a plain list: on the union of its two tuple types `includes` accepts only `never`. */
const firedOf = (result: Verdict<string>): readonly string[] => result.fired;

describe("verdict properties", () => {
  it("MAX_ITERATIONS fires iff iteration >= max_iterations", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = verdict(input);
        expect(firedOf(result).includes("MAX_ITERATIONS")).toBe(
          input.counters.iteration >= input.policy.maxIterations,
        );
      }),
      RUNS,
    );
  });

  it("BUDGET_EXHAUSTED fires iff cap !== null && spend >= cap (as displayed)", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const cap = input.policy.budgetCap ?? null;
        const spend = input.counters.spend ?? 0;
        const result = verdict(input);
        expect(firedOf(result).includes("BUDGET_EXHAUSTED")).toBe(
          cap !== null && roundNumber(spend) >= roundNumber(cap),
        );
        if (cap === null) expect(result.fired).not.toContain("BUDGET_EXHAUSTED");
      }),
      RUNS,
    );
  });

  it("is deterministic: the same input twice gives deep-equal verdicts", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(verdict(structuredClone(input))).toStrictEqual(verdict(input));
        expect(verdict(input)).toStrictEqual(verdict(input));
      }),
      RUNS,
    );
  });

  it("lists fired conditions in precedence order; the first is the condition; stop iff any fired", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = verdict(input);
        const slots = result.fired.map((code) => Precedence[code]);
        expect(slots).toEqual([...slots].sort((a, b) => a - b));
        expect(new Set(result.fired).size).toBe(result.fired.length);
        expect(result.stop).toBe(result.fired.length > 0);
        expect(Object.keys(result.reasons).sort()).toEqual([...result.fired].sort());
        if (result.stop) {
          expect(result.condition).toBe(result.fired[0]);
        } else {
          expect(result.condition).toBe("CONTINUE");
          expect(result.reasons).toStrictEqual({});
        }
      }),
      RUNS,
    );
  });

  it("agrees with the SPEC §2 table for the condition-by-condition fired set", () => {
    fc.assert(
      fc.property(inputArb, ({ counters, policy }) => {
        const expected = {
          APPROVAL_GATE: (counters.approval ?? null) !== null,
          STOP_SCORE_REACHED:
            (policy.stopScore ?? null) !== null &&
            (counters.score ?? null) !== null &&
            (counters.score ?? 0) >= (policy.stopScore ?? 0),
          MAX_ITERATIONS: counters.iteration >= policy.maxIterations,
          TIME_LIMIT:
            (policy.timeLimitMs ?? null) !== null &&
            counters.elapsedMs !== undefined &&
            counters.elapsedMs >= (policy.timeLimitMs ?? 0),
        };
        const result = verdict({ counters, policy });
        for (const [code, shouldFire] of Object.entries(expected)) {
          expect(firedOf(result).includes(code), code).toBe(shouldFire);
        }
        if ((policy.noProgress ?? null) === null) expect(result.fired).not.toContain("NO_PROGRESS");
      }),
      RUNS,
    );
  });

  it("headroom is never negative, and reaches 0 exactly when its condition fires", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = verdict(input);
        const { iterationsLeft, budgetLeft } = result.headroom;
        expect(iterationsLeft).toBeGreaterThanOrEqual(0);
        expect(iterationsLeft === 0).toBe(firedOf(result).includes("MAX_ITERATIONS"));
        if ((input.policy.budgetCap ?? null) === null) {
          expect(budgetLeft).toBeNull();
        } else {
          expect(budgetLeft).not.toBeNull();
          expect(budgetLeft).toBeGreaterThanOrEqual(0);
          expect(budgetLeft === 0).toBe(firedOf(result).includes("BUDGET_EXHAUSTED"));
        }
      }),
      RUNS,
    );
  });
});
