import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { DecideInput, StopConditions } from "./decide-input.js";
import {
  DEFAULT_ITERATION_CONTROL,
  type Attempt,
  type IterationCheck,
  type IterationControl,
} from "./iteration-check.js";
import { attemptsOf } from "./attempts-of.js";
import { verdictInputOf } from "./verdict-input-of.js";

const LOGIN_FAILURE =
  "FAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n";
const INVOICE_FAILURE =
  "FAIL src/billing/invoice.test.ts\nExpected: total to equal 42\nReceived: 41\n";

const BASE_CHECK: IterationCheck = {
  taskId: "task-003",
  currentIteration: 2,
  testResult: { status: "fail", output: LOGIN_FAILURE },
  reviewResult: { status: "pending", feedback: "" },
};

function inputOf(
  check: Partial<IterationCheck> = {},
  stop: StopConditions = {},
  control: Partial<IterationControl> = {},
): DecideInput {
  return {
    iterationControl: { ...DEFAULT_ITERATION_CONTROL, ...control },
    stopConditions: stop,
    iterationCheck: { ...BASE_CHECK, ...check },
  };
}

function attempt(iteration: number, output: string, score?: number | null): Attempt {
  return {
    iteration,
    testResult: { status: "fail", output },
    reviewResult: { status: "pending", feedback: "" },
    ...(score === undefined ? {} : { score }),
  };
}

describe("attemptsOf", () => {
  it("is the current attempt alone when there is no history", () => {
    expect(attemptsOf(inputOf().iterationCheck)).toEqual([
      {
        iteration: 2,
        testResult: BASE_CHECK.testResult,
        reviewResult: BASE_CHECK.reviewResult,
      },
    ]);
  });

  it("puts the history first, oldest first, and the current attempt last with its diff and score", () => {
    const history = [attempt(1, INVOICE_FAILURE, 0.2)];
    const attempts = attemptsOf(inputOf({ history, diff: "+fix", score: 0.4 }).iterationCheck);
    expect(attempts).toEqual([
      history[0],
      {
        iteration: 2,
        testResult: BASE_CHECK.testResult,
        reviewResult: BASE_CHECK.reviewResult,
        diff: "+fix",
        score: 0.4,
      },
    ]);
  });

  it("never writes an undefined diff or score key", () => {
    const [current] = attemptsOf(inputOf().iterationCheck);
    expect(current).not.toHaveProperty("diff");
    expect(current).not.toHaveProperty("score");
  });

  it("keeps a null score as null", () => {
    const [current] = attemptsOf(inputOf({ score: null }).iterationCheck);
    expect(current).toHaveProperty("score", null);
  });
});

describe("verdictInputOf — counters", () => {
  it("defaults spend to 0, score and approval to null, and leaves the optional counters out", () => {
    const { counters } = verdictInputOf(inputOf());
    expect(counters).toEqual({ iteration: 2, spend: 0, score: null, approval: null });
  });

  it("copies the measured counters", () => {
    const approval = { decision: "reject", by: "bob" } as const;
    const { counters } = verdictInputOf(
      inputOf({ spend: 4.2, score: 0.8, approval, elapsedMs: 1_000 }),
    );
    expect(counters).toMatchObject({
      iteration: 2,
      spend: 4.2,
      score: 0.8,
      approval,
      elapsedMs: 1_000,
    });
  });

  it("keeps an elapsed_ms of 0", () => {
    expect(verdictInputOf(inputOf({ elapsedMs: 0 })).counters.elapsedMs).toBe(0);
  });
});

describe("verdictInputOf — policy", () => {
  it("takes max_iterations from iteration_control when the check has none", () => {
    expect(verdictInputOf(inputOf({}, {}, { maxIterations: 7 })).policy.maxIterations).toBe(7);
  });

  it("lets the check's max_iterations override iteration_control's", () => {
    const { policy } = verdictInputOf(inputOf({ maxIterations: 2 }, {}, { maxIterations: 7 }));
    expect(policy.maxIterations).toBe(2);
  });

  it("passes every stop condition through unchanged", () => {
    const stop: StopConditions = {
      budgetCap: 4,
      stopScore: 0.9,
      noProgress: { window: 3, minDelta: 0.01 },
      timeLimitMs: 60_000,
    };
    expect(verdictInputOf(inputOf({}, stop)).policy).toEqual({ ...stop, maxIterations: 3 });
  });
});

describe("verdictInputOf — scores", () => {
  it("uses the caller's scores when supplied", () => {
    const { counters } = verdictInputOf(
      inputOf({ scores: [0.1, 0.2], score: 0.9, history: [attempt(1, LOGIN_FAILURE, 0.5)] }),
    );
    expect(counters.scores).toEqual([0.1, 0.2]);
  });

  it("derives scores from the attempts, oldest first, when every attempt has one", () => {
    const { counters } = verdictInputOf(
      inputOf({
        currentIteration: 3,
        score: 0.7,
        history: [attempt(1, LOGIN_FAILURE, 0.4), attempt(2, INVOICE_FAILURE, 0.6)],
      }),
    );
    expect(counters.scores).toEqual([0.4, 0.6, 0.7]);
  });

  it("derives no scores when an attempt has none or a null one", () => {
    const missing = verdictInputOf(inputOf({ score: 0.7, history: [attempt(1, LOGIN_FAILURE)] }));
    const nulled = verdictInputOf(
      inputOf({ score: 0.7, history: [attempt(1, LOGIN_FAILURE, null)] }),
    );
    const current = verdictInputOf(inputOf({ history: [attempt(1, LOGIN_FAILURE, 0.5)] }));
    expect(missing.counters).not.toHaveProperty("scores");
    expect(nulled.counters).not.toHaveProperty("scores");
    expect(current.counters).not.toHaveProperty("scores");
  });
});

describe("verdictInputOf — signatures", () => {
  const noProgress: StopConditions = { noProgress: { window: 2 } };

  it("uses the caller's signatures when supplied", () => {
    const { counters } = verdictInputOf(
      inputOf({ signatures: ["x", "y"], history: [attempt(1, LOGIN_FAILURE)] }, noProgress),
    );
    expect(counters.signatures).toEqual(["x", "y"]);
  });

  it("derives none while no_progress is off or null: nothing would read them", () => {
    const history = [attempt(1, LOGIN_FAILURE)];
    expect(verdictInputOf(inputOf({ history })).counters).not.toHaveProperty("signatures");
    expect(verdictInputOf(inputOf({ history }, { noProgress: null })).counters).not.toHaveProperty(
      "signatures",
    );
  });

  it("derives one signature per attempt when no_progress is on", () => {
    const { counters } = verdictInputOf(
      inputOf(
        { currentIteration: 3, history: [attempt(1, LOGIN_FAILURE), attempt(2, INVOICE_FAILURE)] },
        noProgress,
      ),
    );
    expect(counters.signatures).toHaveLength(3);
    for (const signature of counters.signatures ?? []) expect(typeof signature).toBe("string");
  });

  it("gives the same failure the same signature and a different failure a different one", () => {
    const { counters } = verdictInputOf(
      inputOf(
        { currentIteration: 3, history: [attempt(1, LOGIN_FAILURE), attempt(2, INVOICE_FAILURE)] },
        noProgress,
      ),
    );
    const [first, second, third] = counters.signatures ?? [];
    expect(first).toBe(third);
    expect(first).not.toBe(second);
  });

  it("derives signatures even from an empty no_progress mapping (defaults apply)", () => {
    const { counters } = verdictInputOf(inputOf({}, { noProgress: {} }));
    expect(counters.signatures).toHaveLength(1);
  });
});

describe("verdictInputOf — properties", () => {
  const status = fc.constantFrom("pass" as const, "fail" as const);
  const review = fc.constantFrom("approve" as const, "reject" as const, "pending" as const);
  const anyAttempt = (iteration: number): fc.Arbitrary<Attempt> =>
    fc.record(
      {
        iteration: fc.constant(iteration),
        testResult: fc.record({ status, output: fc.string({ maxLength: 200 }) }),
        reviewResult: fc.record({ status: review, feedback: fc.string({ maxLength: 100 }) }),
        diff: fc.string({ maxLength: 50 }),
        score: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      },
      { requiredKeys: ["iteration", "testResult", "reviewResult"] },
    );

  it("derives as many signatures as attempts and never an undefined-valued key", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 6 })
          .chain((earlier) =>
            fc.tuple(
              fc.tuple(...Array.from({ length: earlier }, (_, index) => anyAttempt(index + 1))),
              anyAttempt(earlier + 1),
            ),
          ),
        ([history, current]) => {
          const input = inputOf(
            {
              currentIteration: current.iteration,
              testResult: current.testResult,
              reviewResult: current.reviewResult,
              ...(current.score === undefined ? {} : { score: current.score }),
              history,
            },
            { noProgress: { window: 2 } },
          );
          const first = verdictInputOf(input);
          expect(first.counters.signatures).toHaveLength(history.length + 1);
          expect(verdictInputOf(structuredClone(input))).toEqual(first);
          for (const value of Object.values(first.counters)) expect(value).not.toBeUndefined();
          for (const value of Object.values(first.policy)) expect(value).not.toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("verdictInputOf: changes", () => {
  const diff = "--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-x\n+y\n";
  const withDiff = (iteration: number, change: string): Attempt => ({
    ...attempt(iteration, LOGIN_FAILURE),
    diff: change,
  });

  it("fingerprints every attempt's diff when all are known, an empty diff as no change", () => {
    const input = inputOf(
      { history: [withDiff(1, diff)], diff: "" },
      { noProgress: { window: 2 } },
    );
    const changes = verdictInputOf(input).counters.changes;
    expect(changes).toHaveLength(2);
    expect(changes?.[0]).not.toBe("no change");
    expect(changes?.[1]).toBe("no change");
  });

  it("gives the same fingerprint to the same change, and none when a diff is unknown or no_progress is off", () => {
    const same = verdictInputOf(
      inputOf({ history: [withDiff(1, diff)], diff }, { noProgress: { window: 2 } }),
    ).counters.changes;
    expect(same?.[0]).toBe(same?.[1]);
    const partial = inputOf({ history: [attempt(1, LOGIN_FAILURE)], diff }, { noProgress: {} });
    expect(verdictInputOf(partial).counters.changes).toBeUndefined();
    expect(verdictInputOf(inputOf({ diff })).counters.changes).toBeUndefined();
  });
});
