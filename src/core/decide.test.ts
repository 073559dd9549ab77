import { describe, expect, it } from "vitest";
import { builtinConditions } from "./conditions/builtin-conditions.js";
import { defineCondition, fired, held } from "./conditions/condition.js";
import { Precedence } from "./conditions/precedence.js";
import { decide, VALIDATION_PASSED_MESSAGE } from "./decide.js";
import type { DecideInput, StopConditions } from "./decide-input.js";
import type { Decision } from "./decision.js";
import type { Feedback, TestOutputParser } from "./feedback/feedback.js";
import {
  DEFAULT_ITERATION_CONTROL,
  type Attempt,
  type IterationCheck,
  type IterationControl,
} from "./iteration-check.js";
import { SEED_DECIDE_INPUT } from "./test-support/seed-decide-input.js";

/** The seed's failing test output (shared/seeds/000, examples/seed/iteration-check.yaml). */
const SEED_OUTPUT = [
  "FAIL src/auth/login.test.ts",
  "Expected: token to contain userId",
  "Received: undefined",
  "",
].join("\n");

/** Another failure, in another file, so its signature differs from the seed's. */
const OTHER_OUTPUT = [
  "FAIL src/billing/invoice.test.ts",
  "Expected: total to equal 42",
  "Received: 41",
  "",
].join("\n");

/** Review text whose points are easy to tell apart from the test's. */
const REVIEW_TEXT = [
  "- Rename makeThing to buildInvoiceLedger",
  "- Remove the console.log in refundHandler",
].join("\n");

/** A quiet attempt: 1 of 3, tests passed, review pending — nothing fires, the loop waits. */
const BASE_CHECK: IterationCheck = {
  taskId: "task-007",
  currentIteration: 1,
  testResult: { status: "pass", output: "" },
  reviewResult: { status: "pending", feedback: "" },
};

const FAIL = { status: "fail", output: SEED_OUTPUT } as const;
const PASS = { status: "pass", output: "" } as const;
const PENDING = { status: "pending", feedback: "" } as const;
const APPROVE = { status: "approve", feedback: "LGTM" } as const;
const REJECT = { status: "reject", feedback: REVIEW_TEXT } as const;

/** A resolved `decide` input: the quiet attempt with `check`, `control` and `stop` laid over it. */
function inputOf(
  check: Partial<IterationCheck> = {},
  control: Partial<IterationControl> = {},
  stop: StopConditions = {},
): DecideInput {
  return {
    iterationControl: { ...DEFAULT_ITERATION_CONTROL, ...control },
    stopConditions: stop,
    iterationCheck: { ...BASE_CHECK, ...check },
  };
}

/** An earlier attempt of the task. */
function attempt(
  iteration: number,
  output: string,
  extra: Partial<Omit<Attempt, "iteration">> = {},
): Attempt {
  return {
    iteration,
    testResult: { status: "fail", output },
    reviewResult: PENDING,
    ...extra,
  };
}

/** Narrows a decision to its action, failing the test with the whole decision when it differs. */
function expectAction<A extends Decision["action"]>(
  decision: Decision,
  action: A,
): Extract<Decision, { action: A }> {
  expect(decision, JSON.stringify(decision)).toMatchObject({ action });
  return decision as Extract<Decision, { action: A }>;
}

/** Code points a feedback takes against `feedback_max_length` (SPEC §3). */
function feedbackLength(feedback: Feedback): number {
  return [feedback.summary, ...feedback.actionableItems].reduce(
    (total, text) => total + [...text].length,
    0,
  );
}

/** Index of the first feedback line mentioning `needle`, summary counted as -1; -2 when absent. */
function firstMention(feedback: Feedback, needle: string): number {
  const index = feedback.actionableItems.findIndex((item) => item.includes(needle));
  if (index !== -1) return index;
  return feedback.summary.includes(needle) ? -1 : -2;
}

describe("decide — rule 1: the approval gate", () => {
  it("proceeds on approve with reason APPROVAL_GATE even when the test fails and the review rejects", () => {
    const decision = decide(
      inputOf({
        testResult: FAIL,
        reviewResult: REJECT,
        approval: { decision: "approve", by: "alice", note: "ship it" },
      }),
    );
    const proceed = expectAction(decision, "proceed");
    expect(proceed.reason).toBe("APPROVAL_GATE");
    expect(proceed.iteration).toBe(1);
    expect(proceed.taskId).toBe("task-007");
    expect(proceed.fired).toEqual(["APPROVAL_GATE"]);
    expect(proceed.message).toContain("alice");
  });

  it("proceeds on approve even when every limit has fired, listing them all", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 3,
          testResult: FAIL,
          spend: 10,
          elapsedMs: 5_000,
          approval: { decision: "approve" },
        },
        {},
        { budgetCap: 1, timeLimitMs: 1_000 },
      ),
    );
    expect(decision).toMatchObject({ action: "proceed", reason: "APPROVAL_GATE", iteration: 3 });
    expect(decision.fired).toEqual([
      "APPROVAL_GATE",
      "BUDGET_EXHAUSTED",
      "MAX_ITERATIONS",
      "TIME_LIMIT",
    ]);
  });

  it("aborts on reject with reason APPROVAL_GATE even when tests pass and the review approves", () => {
    const decision = decide(
      inputOf({
        currentIteration: 2,
        testResult: PASS,
        reviewResult: APPROVE,
        approval: { decision: "reject", by: "bob", note: "wrong approach" },
      }),
    );
    const abort = expectAction(decision, "abort");
    expect(abort.reason).toBe("APPROVAL_GATE");
    expect(abort.iteration).toBe(2);
    expect(abort.fired).toEqual(["APPROVAL_GATE"]);
    expect(abort.message).toContain("bob");
  });

  it("treats an explicit null approval as no approval", () => {
    const decision = decide(inputOf({ approval: null }));
    expect(decision).toMatchObject({ action: "wait", reason: "REVIEW_PENDING", fired: [] });
  });
});

describe("decide — rule 2: validation passed", () => {
  it("proceeds on pass + approve with the seed's message", () => {
    const decision = decide(inputOf({ currentIteration: 2, reviewResult: APPROVE }));
    expect(decision).toEqual({
      action: "proceed",
      taskId: "task-007",
      iteration: 2,
      reason: "VALIDATION_PASSED",
      fired: [],
      message: "Validation passed. Proceeding to next task.",
    });
    expect(VALIDATION_PASSED_MESSAGE).toBe("Validation passed. Proceeding to next task.");
  });

  it("proceeds on pass + approve at the iteration cap and over budget: success beats the limits", () => {
    const decision = decide(
      inputOf({ currentIteration: 3, reviewResult: APPROVE, spend: 9 }, {}, { budgetCap: 5 }),
    );
    expect(decision).toMatchObject({
      action: "proceed",
      reason: "VALIDATION_PASSED",
      iteration: 3,
      fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
    });
  });

  it("proceeds on pass + pending once the score reaches stop_score, with reason STOP_SCORE_REACHED", () => {
    const decision = decide(inputOf({ score: 0.9 }, {}, { stopScore: 0.9 }));
    expect(decision).toEqual({
      action: "proceed",
      taskId: "task-007",
      iteration: 1,
      reason: "STOP_SCORE_REACHED",
      fired: ["STOP_SCORE_REACHED"],
      message: VALIDATION_PASSED_MESSAGE,
    });
  });

  it("proceeds on pass + pending with stop_score reached even at the iteration cap", () => {
    const decision = decide(inputOf({ currentIteration: 3, score: 0.95 }, {}, { stopScore: 0.9 }));
    expect(decision).toMatchObject({
      action: "proceed",
      reason: "STOP_SCORE_REACHED",
      iteration: 3,
      fired: ["STOP_SCORE_REACHED", "MAX_ITERATIONS"],
    });
  });

  it("says VALIDATION_PASSED, not STOP_SCORE_REACHED, when the review approved and the score also reached", () => {
    const decision = decide(inputOf({ reviewResult: APPROVE, score: 1 }, {}, { stopScore: 0.5 }));
    expect(decision).toMatchObject({
      action: "proceed",
      reason: "VALIDATION_PASSED",
      fired: ["STOP_SCORE_REACHED"],
    });
  });

  it("waits on pass + pending when the score is below stop_score", () => {
    const decision = decide(inputOf({ score: 0.89 }, {}, { stopScore: 0.9 }));
    expect(decision).toMatchObject({ action: "wait", reason: "REVIEW_PENDING", fired: [] });
  });

  it("waits on pass + pending when stop_score is set but no score was measured", () => {
    const decision = decide(inputOf({ score: null }, {}, { stopScore: 0.1 }));
    expect(decision).toMatchObject({ action: "wait", reason: "REVIEW_PENDING", fired: [] });
  });

  it("does not proceed on a rejecting review even when the score reached stop_score", () => {
    const decision = decide(inputOf({ reviewResult: REJECT, score: 0.95 }, {}, { stopScore: 0.9 }));
    expect(decision).toMatchObject({
      action: "retry",
      reason: "REVIEW_REJECTED",
      iteration: 2,
      fired: ["STOP_SCORE_REACHED"],
    });
  });

  it("never proceeds on a failing test with an approving review: it retries with test feedback", () => {
    const decision = decide(inputOf({ testResult: FAIL, reviewResult: APPROVE }));
    const retry = expectAction(decision, "retry");
    expect(retry.reason).toBe("TEST_FAILED");
    expect(retry.iteration).toBe(2);
  });
});

describe("decide — rule 3: a stop condition escalates", () => {
  const cases: readonly {
    readonly code: string;
    readonly check: Partial<IterationCheck>;
    readonly stop: StopConditions;
  }[] = [
    { code: "BUDGET_EXHAUSTED", check: { spend: 4.2 }, stop: { budgetCap: 4 } },
    { code: "MAX_ITERATIONS", check: { currentIteration: 3 }, stop: {} },
    { code: "TIME_LIMIT", check: { elapsedMs: 60_000 }, stop: { timeLimitMs: 60_000 } },
    {
      code: "NO_PROGRESS",
      check: { signatures: ["a1f", "a1f", "a1f"] },
      stop: { noProgress: { window: 3 } },
    },
  ];

  for (const { code, check, stop } of cases) {
    it(`escalates with reason ${code} on a failing test`, () => {
      const decision = decide(inputOf({ ...check, testResult: FAIL }, {}, stop));
      const escalate = expectAction(decision, "escalate");
      expect(escalate.reason).toBe(code);
      expect(escalate.fired).toEqual([code]);
      expect(escalate.iteration).toBe(check.currentIteration ?? 1);
      expect(escalate.taskId).toBe("task-007");
      expect(typeof escalate.context.attemptsSummary).toBe("string");
      expect(escalate.context.attemptsSummary.length).toBeGreaterThan(0);
      expect(escalate.question.length).toBeGreaterThan(0);
    });

    it(`escalates with reason ${code} on passing tests with a pending review (rule 3 before rule 6)`, () => {
      const decision = decide(inputOf(check, {}, stop));
      expect(decision).toMatchObject({ action: "escalate", reason: code, fired: [code] });
    });

    it(`escalates with reason ${code} on a rejecting review (rule 3 before rule 5)`, () => {
      const decision = decide(inputOf({ ...check, reviewResult: REJECT }, {}, stop));
      expect(decision).toMatchObject({ action: "escalate", reason: code, fired: [code] });
    });
  }

  it("does not fire a budget that was not reached", () => {
    const decision = decide(inputOf({ testResult: FAIL, spend: 3.99 }, {}, { budgetCap: 4 }));
    expect(decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", fired: [] });
  });

  it("treats a budget cap of 0 as a real cap", () => {
    const decision = decide(inputOf({ testResult: FAIL }, {}, { budgetCap: 0 }));
    expect(decision).toMatchObject({ action: "escalate", reason: "BUDGET_EXHAUSTED" });
  });

  it("never fires a null budget, whatever was spent", () => {
    const decision = decide(inputOf({ testResult: FAIL, spend: 1e308 }, {}, { budgetCap: null }));
    expect(decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", fired: [] });
  });

  it("does not fire TIME_LIMIT when the caller supplies no elapsed_ms", () => {
    const decision = decide(inputOf({ testResult: FAIL }, {}, { timeLimitMs: 0 }));
    expect(decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", fired: [] });
  });

  it("lets the first condition in §2 order decide when several fire, listing all of them", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 3,
          testResult: FAIL,
          spend: 5,
          elapsedMs: 10,
          signatures: ["x", "x"],
        },
        {},
        { budgetCap: 5, timeLimitMs: 10, noProgress: { window: 2 } },
      ),
    );
    expect(decision).toMatchObject({
      action: "escalate",
      reason: "BUDGET_EXHAUSTED",
      fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS", "TIME_LIMIT", "NO_PROGRESS"],
    });
  });

  it("decides by MAX_ITERATIONS over TIME_LIMIT and NO_PROGRESS when the budget holds", () => {
    const decision = decide(
      inputOf(
        { currentIteration: 4, testResult: FAIL, elapsedMs: 10, signatures: ["x", "x"] },
        {},
        { budgetCap: 100, timeLimitMs: 10, noProgress: { window: 2 } },
      ),
    );
    expect(decision).toMatchObject({
      reason: "MAX_ITERATIONS",
      fired: ["MAX_ITERATIONS", "TIME_LIMIT", "NO_PROGRESS"],
    });
  });

  it("decides by TIME_LIMIT over NO_PROGRESS", () => {
    const decision = decide(
      inputOf(
        { testResult: FAIL, elapsedMs: 11, signatures: ["x", "x"] },
        {},
        { timeLimitMs: 10, noProgress: { window: 2 } },
      ),
    );
    expect(decision).toMatchObject({ reason: "TIME_LIMIT", fired: ["TIME_LIMIT", "NO_PROGRESS"] });
  });

  it("escalates a failing test at max_iterations instead of retrying it", () => {
    const decision = decide(inputOf({ currentIteration: 3, testResult: FAIL }));
    expect(decision).toMatchObject({
      action: "escalate",
      reason: "MAX_ITERATIONS",
      iteration: 3,
      fired: ["MAX_ITERATIONS"],
    });
  });

  it("escalates by the limit rather than AUTO_RETRY_DISABLED when both apply (rule 3 before rule 4)", () => {
    const decision = decide(
      inputOf({ currentIteration: 3, testResult: FAIL }, { autoRetryOnTestFail: false }),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "MAX_ITERATIONS" });
  });

  it("includes the attempt's diff in the escalation when escalation_includes_diff is on", () => {
    const diff = "--- a/src/auth/login.ts\n+++ b/src/auth/login.ts\n+  return sign({ userId });\n";
    const decision = decide(inputOf({ currentIteration: 3, testResult: FAIL, diff }));
    const escalate = expectAction(decision, "escalate");
    expect(escalate.context.diff).toContain("sign({ userId })");
  });

  it("leaves the diff out of the escalation when escalation_includes_diff is off", () => {
    const diff = "--- a/src/auth/login.ts\n+++ b/src/auth/login.ts\n+  return sign({ userId });\n";
    const decision = decide(
      inputOf({ currentIteration: 3, testResult: FAIL, diff }, { escalationIncludesDiff: false }),
    );
    const escalate = expectAction(decision, "escalate");
    expect(escalate.context).not.toHaveProperty("diff");
    expect(JSON.stringify(escalate)).not.toContain("sign({ userId })");
  });
});

describe("decide — rule 4: a failing test retries", () => {
  it("retries below the cap with reason TEST_FAILED and iteration = current + 1", () => {
    const decision = decide(inputOf({ currentIteration: 2, testResult: FAIL }));
    const retry = expectAction(decision, "retry");
    expect(retry.reason).toBe("TEST_FAILED");
    expect(retry.iteration).toBe(3);
    expect(retry.fired).toEqual([]);
    expect(retry.taskId).toBe("task-007");
    expect(retry.feedback.summary.length).toBeGreaterThan(0);
    expect(["high", "medium", "low"]).toContain(retry.feedback.priority);
  });

  it("retries with exactly the three feedback fields", () => {
    const retry = expectAction(decide(inputOf({ testResult: FAIL })), "retry");
    expect(Object.keys(retry.feedback).sort()).toEqual(["actionableItems", "priority", "summary"]);
  });

  it("escalates with AUTO_RETRY_DISABLED when auto_retry_on_test_fail is false", () => {
    const decision = decide(inputOf({ testResult: FAIL }, { autoRetryOnTestFail: false }));
    const escalate = expectAction(decision, "escalate");
    expect(escalate.reason).toBe("AUTO_RETRY_DISABLED");
    expect(escalate.iteration).toBe(1);
    expect(escalate.fired).toEqual([]);
    expect(escalate.question.length).toBeGreaterThan(0);
  });

  it("escalates with AUTO_RETRY_DISABLED on fail + reject when only test retries are off", () => {
    const decision = decide(
      inputOf(
        { testResult: FAIL, reviewResult: REJECT },
        { autoRetryOnTestFail: false, autoRetryOnReviewReject: true },
      ),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "AUTO_RETRY_DISABLED" });
  });

  it("retries fail + reject with TEST_FAILED, test items before review items", () => {
    const decision = decide(
      inputOf({ testResult: FAIL, reviewResult: REJECT }, { feedbackMaxLength: 2_000 }),
    );
    const retry = expectAction(decision, "retry");
    expect(retry.reason).toBe("TEST_FAILED");
    expect(retry.iteration).toBe(2);
    const { feedback } = retry;
    const test = firstMention(feedback, "login.test.ts");
    const review = feedback.actionableItems.findIndex(
      (item) => item.includes("buildInvoiceLedger") || item.includes("refundHandler"),
    );
    expect(test, JSON.stringify(feedback)).toBeGreaterThan(-2);
    expect(review, JSON.stringify(feedback)).toBeGreaterThan(-1);
    expect(test).toBeLessThan(review);
  });

  it("retries fail + reject with TEST_FAILED even when review retries are off", () => {
    const decision = decide(
      inputOf({ testResult: FAIL, reviewResult: REJECT }, { autoRetryOnReviewReject: false }),
    );
    expect(decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", iteration: 2 });
  });

  it("lists STOP_SCORE_REACHED in fired beside a failing test, yet retries", () => {
    const decision = decide(inputOf({ testResult: FAIL, score: 0.99 }, {}, { stopScore: 0.9 }));
    expect(decision).toMatchObject({
      action: "retry",
      reason: "TEST_FAILED",
      iteration: 2,
      fired: ["STOP_SCORE_REACHED"],
    });
  });

  it("leaves review text out of a fail + pending retry", () => {
    const decision = decide(
      inputOf({
        testResult: FAIL,
        reviewResult: { status: "pending", feedback: "- Rename makeThing to buildInvoiceLedger" },
      }),
    );
    const retry = expectAction(decision, "retry");
    expect(JSON.stringify(retry.feedback)).not.toContain("buildInvoiceLedger");
  });

  it("uses a caller's test-output parser", () => {
    const parser = {
      name: "acme",
      detect: (output: string) => output.startsWith("ACME-RUNNER"),
      parse: () => [
        {
          test: "acme suite > renders the quokka",
          file: "src/quokka.spec.ts",
          line: 7,
          expected: "quokka",
          received: "wombat",
          message: "quokka mismatch",
        },
      ],
    };
    const decision = decide(
      inputOf({ testResult: { status: "fail", output: "ACME-RUNNER 1 failed\n" } }),
      { parsers: [parser] },
    );
    const retry = expectAction(decision, "retry");
    expect(JSON.stringify(retry.feedback)).toMatch(/quokka/);
  });
});

describe("decide — rule 5: a rejecting review retries", () => {
  it("retries pass + reject with reason REVIEW_REJECTED and the review's points", () => {
    const decision = decide(inputOf({ currentIteration: 2, reviewResult: REJECT }));
    const retry = expectAction(decision, "retry");
    expect(retry.reason).toBe("REVIEW_REJECTED");
    expect(retry.iteration).toBe(3);
    expect(retry.fired).toEqual([]);
    expect(JSON.stringify(retry.feedback)).toContain("buildInvoiceLedger");
  });

  it("escalates with AUTO_RETRY_DISABLED when auto_retry_on_review_reject is false", () => {
    const decision = decide(inputOf({ reviewResult: REJECT }, { autoRetryOnReviewReject: false }));
    expect(decision).toMatchObject({
      action: "escalate",
      reason: "AUTO_RETRY_DISABLED",
      iteration: 1,
      fired: [],
    });
  });

  it("still retries a rejecting review when only test retries are off", () => {
    const decision = decide(inputOf({ reviewResult: REJECT }, { autoRetryOnTestFail: false }));
    expect(decision).toMatchObject({ action: "retry", reason: "REVIEW_REJECTED" });
  });
});

describe("decide — rule 6: a pending review waits", () => {
  it("waits on pass + pending with reason REVIEW_PENDING and the current iteration", () => {
    const decision = decide(inputOf({ currentIteration: 2 }));
    const wait = expectAction(decision, "wait");
    expect(wait.reason).toBe("REVIEW_PENDING");
    expect(wait.iteration).toBe(2);
    expect(wait.fired).toEqual([]);
    expect(wait.taskId).toBe("task-007");
    expect(wait.message.length).toBeGreaterThan(0);
  });
});

describe("decide — iterations", () => {
  it("carries iteration = current_iteration on every action but retry", () => {
    const decisions = [
      decide(inputOf({ currentIteration: 2, approval: { decision: "approve" } })),
      decide(inputOf({ currentIteration: 2, approval: { decision: "reject" } })),
      decide(inputOf({ currentIteration: 2, reviewResult: APPROVE })),
      decide(inputOf({ currentIteration: 2, testResult: FAIL }, { autoRetryOnTestFail: false })),
      decide(inputOf({ currentIteration: 2 })),
    ];
    expect(decisions.map((decision) => decision.action)).toEqual([
      "proceed",
      "abort",
      "proceed",
      "escalate",
      "wait",
    ]);
    for (const decision of decisions) expect(decision.iteration).toBe(2);
  });

  it("lets iteration_check.max_iterations raise iteration_control's cap", () => {
    const decision = decide(
      inputOf({ currentIteration: 3, maxIterations: 5, testResult: FAIL }, { maxIterations: 3 }),
    );
    expect(decision).toMatchObject({ action: "retry", iteration: 4, fired: [] });
  });

  it("lets iteration_check.max_iterations lower iteration_control's cap", () => {
    const decision = decide(
      inputOf({ currentIteration: 2, maxIterations: 2, testResult: FAIL }, { maxIterations: 10 }),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "MAX_ITERATIONS", iteration: 2 });
  });

  it("fires the cap at max_iterations, never one before", () => {
    expect(
      decide(inputOf({ currentIteration: 4, testResult: FAIL }, { maxIterations: 5 })),
    ).toMatchObject({
      action: "retry",
      iteration: 5,
    });
    expect(
      decide(inputOf({ currentIteration: 5, testResult: FAIL }, { maxIterations: 5 })),
    ).toMatchObject({
      action: "escalate",
      reason: "MAX_ITERATIONS",
    });
  });

  it("fires the cap past max_iterations too", () => {
    const decision = decide(inputOf({ currentIteration: 7, testResult: FAIL }));
    expect(decision).toMatchObject({ action: "escalate", reason: "MAX_ITERATIONS", iteration: 7 });
  });
});

describe("decide — NO_PROGRESS from history", () => {
  const window2: StopConditions = { noProgress: { window: 2 } };

  it("reads an earlier attempt's output once, however many decisions read its signature", () => {
    const read: string[] = [];
    const counting: TestOutputParser = {
      name: "counting",
      detect: (output) => {
        read.push(output);
        return false;
      },
      parse: () => [],
    };
    // The same parser set each time: signatures are remembered per parser set.
    const parsers = [counting];
    const history = Array.from({ length: 40 }, (_, i) => attempt(i + 1, `FAIL case ${i}\n`));
    const next = (current: number, past: readonly Attempt[]) =>
      decide(
        inputOf(
          {
            currentIteration: current,
            testResult: { status: "fail", output: `FAIL now ${current}\n` },
            history: past,
          },
          { maxIterations: 100 },
          { noProgress: { window: 50 } },
        ),
        { parsers },
      );
    const first = next(41, history);
    expect(read.filter((output) => output.startsWith("FAIL case")).length).toBe(40);
    // The attempt just run is read once: its signature and its retry feedback share the read.
    expect(read.filter((output) => output.startsWith("FAIL now")).length).toBe(1);
    read.length = 0;
    const later = [...history, attempt(41, "FAIL now 41\n")];
    const second = next(42, later);
    expect(read.filter((output) => output.startsWith("FAIL case"))).toEqual([]);
    // The same decisions as from copies of the attempts, which nothing was remembered of.
    expect(second).toEqual(next(42, structuredClone(later)));
    expect(first).toMatchObject({ action: "retry", reason: "TEST_FAILED" });
  });

  it("derives signatures from the attempts: the same failure twice escalates NO_PROGRESS", () => {
    const decision = decide(
      inputOf(
        { currentIteration: 2, testResult: FAIL, history: [attempt(1, SEED_OUTPUT)] },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({
      action: "escalate",
      reason: "NO_PROGRESS",
      iteration: 2,
      fired: ["NO_PROGRESS"],
    });
  });

  it("does not fire on two different failures", () => {
    const decision = decide(
      inputOf(
        { currentIteration: 2, testResult: FAIL, history: [attempt(1, OTHER_OUTPUT)] },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", fired: [] });
  });

  it("does not fire on a repeated failure when no_progress is off", () => {
    const decision = decide(
      inputOf(
        { currentIteration: 2, testResult: FAIL, history: [attempt(1, SEED_OUTPUT)] },
        { maxIterations: 10 },
        { noProgress: null },
      ),
    );
    expect(decision).toMatchObject({ action: "retry", fired: [] });
  });

  it("does not fire before the window is full", () => {
    const decision = decide(
      inputOf(
        { currentIteration: 2, testResult: FAIL, history: [attempt(1, SEED_OUTPUT)] },
        { maxIterations: 10 },
        { noProgress: { window: 3 } },
      ),
    );
    expect(decision).toMatchObject({ action: "retry", fired: [] });
  });

  it("detects derived oscillation A, B, A, B", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 4,
          testResult: { status: "fail", output: OTHER_OUTPUT },
          history: [attempt(1, SEED_OUTPUT), attempt(2, OTHER_OUTPUT), attempt(3, SEED_OUTPUT)],
        },
        { maxIterations: 10 },
        { noProgress: { window: 3 } },
      ),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "NO_PROGRESS" });
  });

  it("does not call A, B, A, C an oscillation", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 4,
          testResult: { status: "fail", output: "FAIL src/c.test.ts\nExpected: 3\nReceived: 4\n" },
          history: [attempt(1, SEED_OUTPUT), attempt(2, OTHER_OUTPUT), attempt(3, SEED_OUTPUT)],
        },
        { maxIterations: 10 },
        { noProgress: { window: 3 } },
      ),
    );
    expect(decision).toMatchObject({ action: "retry", fired: [] });
  });

  it("uses the caller's signatures when supplied: identical ones fire though the outputs differ", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 2,
          testResult: FAIL,
          history: [attempt(1, OTHER_OUTPUT)],
          signatures: ["s1", "s1"],
        },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "NO_PROGRESS" });
  });

  it("uses the caller's signatures when supplied: distinct ones hold though the outputs repeat", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 2,
          testResult: FAIL,
          history: [attempt(1, SEED_OUTPUT)],
          signatures: ["s1", "s2"],
        },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({ action: "retry", fired: [] });
  });

  it("derives scores from the attempts' scores: a stalled score escalates NO_PROGRESS", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 3,
          testResult: { status: "fail", output: "FAIL src/c.test.ts\nExpected: 3\nReceived: 4\n" },
          score: 0.55,
          history: [
            attempt(1, SEED_OUTPUT, { score: 0.6 }),
            attempt(2, OTHER_OUTPUT, { score: 0.5 }),
          ],
        },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "NO_PROGRESS" });
  });

  it("derives scores from the attempts' scores: a rising score holds", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 3,
          testResult: { status: "fail", output: "FAIL src/c.test.ts\nExpected: 3\nReceived: 4\n" },
          score: 0.7,
          history: [
            attempt(1, SEED_OUTPUT, { score: 0.4 }),
            attempt(2, OTHER_OUTPUT, { score: 0.5 }),
          ],
        },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({ action: "retry", fired: [] });
  });

  it("prefers the caller's scores over the attempts' scores", () => {
    const decision = decide(
      inputOf(
        {
          currentIteration: 3,
          testResult: { status: "fail", output: "FAIL src/c.test.ts\nExpected: 3\nReceived: 4\n" },
          score: 0.7,
          scores: [0.9, 0.5, 0.5],
          history: [
            attempt(1, SEED_OUTPUT, { score: 0.4 }),
            attempt(2, OTHER_OUTPUT, { score: 0.5 }),
          ],
        },
        { maxIterations: 10 },
        window2,
      ),
    );
    expect(decision).toMatchObject({ action: "escalate", reason: "NO_PROGRESS" });
  });
});

describe("decide — custom conditions", () => {
  const costSpike = defineCondition("COST_SPIKE", Precedence.BUDGET_EXHAUSTED + 50, () =>
    fired("spend doubled in one pass"),
  );
  const quiet = defineCondition("NEVER", Precedence.NO_PROGRESS + 100, () => held("never fires"));

  it("escalates with the custom condition's own code", () => {
    const decision = decide(inputOf({ testResult: FAIL }), {
      conditions: [...builtinConditions, costSpike],
    });
    expect(decision).toMatchObject({
      action: "escalate",
      reason: "COST_SPIKE",
      fired: ["COST_SPIKE"],
    });
  });

  it("places the custom condition in precedence order among the built-ins", () => {
    const decision = decide(inputOf({ currentIteration: 3, testResult: FAIL }), {
      conditions: [costSpike, ...builtinConditions],
    });
    expect(decision).toMatchObject({
      action: "escalate",
      reason: "COST_SPIKE",
      fired: ["COST_SPIKE", "MAX_ITERATIONS"],
    });
  });

  it("escalates on a custom condition even when tests pass and the review is pending", () => {
    const decision = decide(inputOf(), { conditions: [...builtinConditions, costSpike] });
    expect(decision).toMatchObject({ action: "escalate", reason: "COST_SPIKE" });
  });

  it("changes nothing while the custom condition holds", () => {
    const decision = decide(inputOf({ testResult: FAIL }), {
      conditions: [...builtinConditions, quiet],
    });
    expect(decision).toMatchObject({ action: "retry", reason: "TEST_FAILED", fired: [] });
  });
});

describe("decide — the seed example (examples/seed/iteration-check.yaml)", () => {
  const seed = SEED_DECIDE_INPUT;

  it("retries attempt 3 with high-priority test feedback naming userId and the failing file", () => {
    const retry = expectAction(decide(seed), "retry");
    expect(retry.taskId).toBe("task-003");
    expect(retry.iteration).toBe(3);
    expect(retry.reason).toBe("TEST_FAILED");
    expect(retry.fired).toEqual([]);
    expect(retry.feedback.priority).toBe("high");
    expect(retry.feedback.summary).toContain("userId");
    expect(
      retry.feedback.actionableItems.some((item) => item.includes("src/auth/login.test.ts")),
    ).toBe(true);
    expect(feedbackLength(retry.feedback)).toBeLessThanOrEqual(500);
  });

  it("escalates the same failure at attempt 3 with MAX_ITERATIONS", () => {
    const decision = decide({
      ...seed,
      iterationCheck: {
        ...seed.iterationCheck,
        currentIteration: 3,
        history: [attempt(1, SEED_OUTPUT), attempt(2, SEED_OUTPUT)],
      },
    });
    expect(decision).toMatchObject({
      action: "escalate",
      taskId: "task-003",
      iteration: 3,
      reason: "MAX_ITERATIONS",
      fired: ["MAX_ITERATIONS"],
    });
  });
});

describe("decide — feedback_max_length", () => {
  const hugeOutput = Array.from(
    { length: 400 },
    (_, index) =>
      `FAIL src/module${index}/feature.test.ts\n  ● feature ${index} › works 🧪\n    Expected: "é${"x".repeat(40)}"\n    Received: "😀${"y".repeat(40)}"\n`,
  ).join("\n");
  const hugeReview = Array.from(
    { length: 200 },
    (_, index) => `- Point ${index}: rename the 🦄 helper and document its edge cases`,
  ).join("\n");

  for (const cap of [1, 2, 10, 40, 120, 500]) {
    it(`keeps test feedback within ${cap} code points`, () => {
      const retry = expectAction(
        decide(
          inputOf(
            { testResult: { status: "fail", output: hugeOutput } },
            { feedbackMaxLength: cap },
          ),
        ),
        "retry",
      );
      expect(feedbackLength(retry.feedback)).toBeLessThanOrEqual(cap);
    });

    it(`keeps combined test + review feedback within ${cap} code points`, () => {
      const retry = expectAction(
        decide(
          inputOf(
            {
              testResult: { status: "fail", output: hugeOutput },
              reviewResult: { status: "reject", feedback: hugeReview },
            },
            { feedbackMaxLength: cap },
          ),
        ),
        "retry",
      );
      expect(feedbackLength(retry.feedback)).toBeLessThanOrEqual(cap);
    });

    it(`keeps review feedback within ${cap} code points`, () => {
      const retry = expectAction(
        decide(
          inputOf(
            { reviewResult: { status: "reject", feedback: hugeReview } },
            { feedbackMaxLength: cap },
          ),
        ),
        "retry",
      );
      expect(feedbackLength(retry.feedback)).toBeLessThanOrEqual(cap);
    });
  }

  it("uses the room it has: a generous cap keeps a non-empty summary", () => {
    const retry = expectAction(
      decide(
        inputOf({ testResult: { status: "fail", output: hugeOutput } }, { feedbackMaxLength: 500 }),
      ),
      "retry",
    );
    expect(retry.feedback.summary.length).toBeGreaterThan(0);
  });
});

describe("decide — purity", () => {
  it("neither mutates its input nor depends on call order", () => {
    const input = inputOf(
      {
        currentIteration: 2,
        testResult: FAIL,
        reviewResult: REJECT,
        history: [attempt(1, SEED_OUTPUT, { score: 0.3 })],
        score: 0.4,
      },
      {},
      { noProgress: { window: 3 }, stopScore: 0.9 },
    );
    const before = structuredClone(input);
    const first = decide(input);
    decide(inputOf({ currentIteration: 3, testResult: FAIL }));
    expect(decide(input)).toEqual(first);
    expect(input).toEqual(before);
  });
});
