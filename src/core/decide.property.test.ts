import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fuzzRuns, fuzzSeed } from "../test-support/hostile/fuzz-runs.js";
import type { Approval } from "./counters.js";
import type { BuiltinConditionCode } from "./conditions/precedence.js";
import { decide } from "./decide.js";
import type { DecideInput, StopConditions } from "./decide-input.js";
import type { Decision } from "./decision.js";
import type {
  Attempt,
  IterationCheck,
  IterationControl,
  ReviewResult,
  TestResult,
} from "./iteration-check.js";

// The default suite's slice; npm run fuzz runs many more.
const RUNS = { numRuns: fuzzRuns(400), ...fuzzSeed() } as const;

const SPEC_ORDER: readonly BuiltinConditionCode[] = [
  "APPROVAL_GATE",
  "STOP_SCORE_REACHED",
  "BUDGET_EXHAUSTED",
  "MAX_ITERATIONS",
  "TIME_LIMIT",
  "NO_PROGRESS",
];

/** Conditions that end a loop by running out of something: the ones rule 3 escalates on. */
const LIMITS: ReadonlySet<string> = new Set([
  "BUDGET_EXHAUSTED",
  "MAX_ITERATIONS",
  "TIME_LIMIT",
  "NO_PROGRESS",
]);

/** Runner output: realistic failures, arbitrary text, astral characters and ANSI colours. */
const output: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "FAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n",
    "FAIL src/billing/invoice.test.ts\n  ● invoice › totals\n    Expected: 42\n    Received: 41\n",
    "\u001b[31mFAIL\u001b[39m src/a.test.ts\n  AssertionError: expected 1 to be 2\n",
    "=== FAILURES ===\ntests/test_x.py:12: AssertionError\nE       assert 1 == 2\n",
    "--- FAIL: TestSum (0.00s)\n    sum_test.go:9: got 3, want 4\n",
  ),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc
    .array(
      fc.record({
        file: fc.stringMatching(/^[a-z]{1,12}$/),
        expected: fc.string({ maxLength: 60 }),
        received: fc.string({ unit: "grapheme", maxLength: 60 }),
      }),
      { minLength: 1, maxLength: 30 },
    )
    .map((failures) =>
      failures
        .map(
          ({ file, expected, received }) =>
            `FAIL src/${file}.test.ts\nExpected: ${expected}\nReceived: ${received}\n`,
        )
        .join("\n"),
    ),
);

/** Review text: bullet lists, prose, arbitrary text. */
const reviewText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "LGTM", "- Rename foo to bar\n- Remove the debug log\n"),
  fc
    .array(fc.string({ maxLength: 80 }), { maxLength: 12 })
    .map((points) => points.map((point) => `- ${point}`).join("\n")),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 200 }),
);

const testResult: fc.Arbitrary<TestResult> = fc.record({
  status: fc.constantFrom("pass" as const, "fail" as const),
  output,
});

const reviewResult: fc.Arbitrary<ReviewResult> = fc.record({
  status: fc.constantFrom("approve" as const, "reject" as const, "pending" as const),
  feedback: reviewText,
});

const score = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);

const amount = fc.oneof(
  fc.integer({ min: 0, max: 1_000 }).map((n) => n / 100),
  fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
  fc.constant(1e308),
);

const approval: fc.Arbitrary<Approval> = fc.record(
  {
    decision: fc.constantFrom("approve" as const, "reject" as const),
    by: fc.string({ maxLength: 20 }),
    note: fc.string({ maxLength: 40 }),
  },
  { requiredKeys: ["decision"] },
);

const attemptArb = (iteration: number): fc.Arbitrary<Attempt> =>
  fc.record(
    {
      iteration: fc.constant(iteration),
      testResult,
      reviewResult,
      diff: fc.string({ maxLength: 100 }),
      score: fc.option(score),
    },
    { requiredKeys: ["iteration", "testResult", "reviewResult"] },
  );

const control: fc.Arbitrary<IterationControl> = fc.record({
  maxIterations: fc.integer({ min: 1, max: 10 }),
  autoRetryOnTestFail: fc.boolean(),
  autoRetryOnReviewReject: fc.boolean(),
  escalationIncludesDiff: fc.boolean(),
  feedbackMaxLength: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 1_000 })),
});

/** The limits other than the budget, each optional. */
const otherLimits = {
  stopScore: fc.option(score),
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
};

const stopConditions: fc.Arbitrary<StopConditions> = fc.record(
  { budgetCap: fc.option(amount), ...otherLimits },
  { requiredKeys: [] },
);

/** Stop conditions whose budget is null or absent. */
const uncappedStopConditions: fc.Arbitrary<StopConditions> = fc.oneof(
  fc.record(otherLimits, { requiredKeys: [] }),
  fc.record({ budgetCap: fc.constant(null), ...otherLimits }, { requiredKeys: ["budgetCap"] }),
);

/** The attempt just evaluated, with earlier attempts numbered 1 … current − 1 (at most 6 of them). */
const check: fc.Arbitrary<IterationCheck> = fc
  .integer({ min: 1, max: 12 })
  .chain((currentIteration) => {
    const earlier = Math.min(currentIteration - 1, 6);
    const first = currentIteration - earlier;
    return fc.record(
      {
        taskId: fc.string({ minLength: 1, maxLength: 20 }),
        currentIteration: fc.constant(currentIteration),
        maxIterations: fc.integer({ min: 1, max: 10 }),
        testResult,
        reviewResult,
        spend: amount,
        score: fc.option(score),
        scores: fc.array(score, { maxLength: 8 }),
        signatures: fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 8 }),
        elapsedMs: fc.nat({ max: 100_000 }),
        approval: fc.option(approval),
        diff: fc.string({ maxLength: 200 }),
        history: fc.tuple(
          ...Array.from({ length: earlier }, (_, index) => attemptArb(first + index)),
        ),
      },
      { requiredKeys: ["taskId", "currentIteration", "testResult", "reviewResult"] },
    );
  });

const decideInput: fc.Arbitrary<DecideInput> = fc.record({
  iterationControl: control,
  stopConditions,
  iterationCheck: check,
});

/** The iteration cap in force: the check's own, else iteration_control's. */
function effectiveMax(input: DecideInput): number {
  return input.iterationCheck.maxIterations ?? input.iterationControl.maxIterations;
}

/** Code points a retry's feedback takes against `feedback_max_length`. */
function feedbackLength(decision: Extract<Decision, { action: "retry" }>): number {
  const { summary, actionableItems } = decision.feedback;
  return [summary, ...actionableItems].reduce((total, text) => total + [...text].length, 0);
}

/** SPEC §3's rules, first match wins, read off the statuses, the flags and what fired. */
function expectedOutcome(input: DecideInput, fired: readonly string[]): [string, string] {
  const check = input.iterationCheck;
  const control = input.iterationControl;
  const pass = check.testResult.status === "pass";
  const review = check.reviewResult.status;
  const approvalNow = check.approval ?? null;
  if (approvalNow !== null)
    return [approvalNow.decision === "approve" ? "proceed" : "abort", "APPROVAL_GATE"];
  if (pass && review === "approve") return ["proceed", "VALIDATION_PASSED"];
  if (pass && review === "pending" && fired.includes("STOP_SCORE_REACHED"))
    return ["proceed", "STOP_SCORE_REACHED"];
  const limit = fired.find((code) => LIMITS.has(code));
  if (limit !== undefined) return ["escalate", limit];
  if (!pass)
    return control.autoRetryOnTestFail
      ? ["retry", "TEST_FAILED"]
      : ["escalate", "AUTO_RETRY_DISABLED"];
  if (review === "reject")
    return control.autoRetryOnReviewReject
      ? ["retry", "REVIEW_REJECTED"]
      : ["escalate", "AUTO_RETRY_DISABLED"];
  return ["wait", "REVIEW_PENDING"];
}

describe("decide — properties over arbitrary inputs", () => {
  it("never proceeds on a failing test unless a human approved", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const decision = decide(input);
        if (
          input.iterationCheck.testResult.status === "fail" &&
          input.iterationCheck.approval?.decision !== "approve"
        ) {
          expect(decision.action).not.toBe("proceed");
        }
      }),
      RUNS,
    );
  });

  it("is deterministic: the same input, twice or cloned, decides the same", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const first = decide(input);
        expect(decide(input)).toEqual(first);
        expect(decide(structuredClone(input))).toEqual(first);
      }),
      RUNS,
    );
  });

  it("fires MAX_ITERATIONS iff current_iteration >= the effective max_iterations", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const decision = decide(input);
        expect(decision.fired.includes("MAX_ITERATIONS")).toBe(
          input.iterationCheck.currentIteration >= effectiveMax(input),
        );
      }),
      RUNS,
    );
  });

  it("fires TIME_LIMIT iff a limit is set, elapsed_ms is supplied and reached it", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const limit = input.stopConditions.timeLimitMs ?? null;
        const elapsed = input.iterationCheck.elapsedMs;
        expect(decide(input).fired.includes("TIME_LIMIT")).toBe(
          limit !== null && elapsed !== undefined && elapsed >= limit,
        );
      }),
      RUNS,
    );
  });

  it("carries iteration = current + 1 on retry and = current on every other action", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const decision = decide(input);
        const current = input.iterationCheck.currentIteration;
        expect(decision.iteration).toBe(decision.action === "retry" ? current + 1 : current);
        expect(decision.taskId).toBe(input.iterationCheck.taskId);
      }),
      RUNS,
    );
  });

  it("keeps retry feedback within feedback_max_length code points for any cap >= 1", () => {
    const failingOrRejected = decideInput.map((input): DecideInput => ({
      ...input,
      iterationControl: {
        ...input.iterationControl,
        autoRetryOnTestFail: true,
        autoRetryOnReviewReject: true,
      },
      stopConditions: {},
      iterationCheck: {
        ...input.iterationCheck,
        approval: null,
        maxIterations: input.iterationCheck.currentIteration + 1,
        reviewResult:
          input.iterationCheck.testResult.status === "pass"
            ? { ...input.iterationCheck.reviewResult, status: "reject" }
            : input.iterationCheck.reviewResult,
      },
    }));
    fc.assert(
      fc.property(failingOrRejected, (input) => {
        const decision = decide(input);
        expect(decision.action).toBe("retry");
        if (decision.action !== "retry") return;
        expect(feedbackLength(decision)).toBeLessThanOrEqual(
          input.iterationControl.feedbackMaxLength,
        );
      }),
      RUNS,
    );
  });

  it("keeps feedback within the cap on whatever inputs happen to retry", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const decision = decide(input);
        if (decision.action === "retry") {
          expect(feedbackLength(decision)).toBeLessThanOrEqual(
            input.iterationControl.feedbackMaxLength,
          );
        }
      }),
      RUNS,
    );
  });

  it("lists fired conditions in §2 order, each once", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const positions = decide(input).fired.map((code) =>
          SPEC_ORDER.indexOf(code as BuiltinConditionCode),
        );
        expect(positions.every((position) => position >= 0)).toBe(true);
        for (let index = 1; index < positions.length; index += 1) {
          expect(positions[index]).toBeGreaterThan(positions[index - 1] ?? -1);
        }
      }),
      RUNS,
    );
  });

  it("escalates only for a fired limit (the first one) or AUTO_RETRY_DISABLED", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const decision = decide(input);
        if (decision.action !== "escalate") return;
        const firstLimit = decision.fired.find((code) => LIMITS.has(code));
        if (firstLimit === undefined) expect(decision.reason).toBe("AUTO_RETRY_DISABLED");
        else expect(decision.reason).toBe(firstLimit);
        expect(decision.question.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it("follows SPEC §3's rules in order: action and reason match a reference reading", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        const decision = decide(input);
        expect([decision.action, decision.reason]).toEqual(expectedOutcome(input, decision.fired));
      }),
      RUNS,
    );
  });

  it("never fires a null or absent budget, at any spend up to 1e308", () => {
    const uncapped = fc
      .tuple(
        control,
        uncappedStopConditions,
        check,
        fc.oneof(fc.constant(1e308), fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true })),
      )
      .map(([iterationControl, stop, iterationCheck, spend]): DecideInput => ({
        iterationControl,
        stopConditions: stop,
        iterationCheck: { ...iterationCheck, spend },
      }));
    fc.assert(
      fc.property(uncapped, (input) => {
        const decision = decide(input);
        expect(decision.fired).not.toContain("BUDGET_EXHAUSTED");
        expect(decision.reason).not.toBe("BUDGET_EXHAUSTED");
      }),
      RUNS,
    );
  });

  it("lets the approval gate decide whenever an approval is recorded", () => {
    fc.assert(
      fc.property(decideInput, approval, (input, recorded) => {
        const decision = decide({
          ...input,
          iterationCheck: { ...input.iterationCheck, approval: recorded },
        });
        expect(decision.reason).toBe("APPROVAL_GATE");
        expect(decision.action).toBe(recorded.decision === "approve" ? "proceed" : "abort");
        expect(decision.fired[0]).toBe("APPROVAL_GATE");
      }),
      RUNS,
    );
  });
});
