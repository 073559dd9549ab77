import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_ITERATION_CONTROL, type IterationCheck } from "../iteration-check.js";
import { escalation } from "./build-escalation.js";
import {
  failing,
  SEED_ATTEMPTS,
  SEED_CHECK,
  STRING_USER_ID_OUTPUT,
} from "./test-support/seed-attempts.js";

const control = DEFAULT_ITERATION_CONTROL;
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiIxMjMifQ.c2lnbmF0dXJlLXNlY3JldA";

describe("escalation, the seed's scenario", () => {
  const result = escalation({ check: SEED_CHECK, reason: "MAX_ITERATIONS", control });

  it("summarizes each attempt in one line", () => {
    expect(result.context.attemptsSummary).toBe(
      [
        "Iteration 1: Test failed - undefined token",
        "Iteration 2: Test failed - token missing userId",
        "Iteration 3: Test failed - userId present but wrong format (string instead of number)",
        "",
      ].join("\n"),
    );
  });

  it("names the userId format mismatch", () => {
    expect(result.context.patternDetected).toBe(
      "userId format mismatch between token and test expectation",
    );
  });

  it("asks which format to use, with both values and their types", () => {
    expect(result.question).toBe(
      [
        "After 3 attempts, the test still fails due to userId format.",
        "",
        'The token contains: { userId: "123" } (string)',
        "The test expects: { userId: 123 } (number)",
        "",
        "Which format should be used?",
        "1. String (update test)",
        "2. Number (update implementation)",
      ].join("\n"),
    );
  });

  it("reads coloured output the same way", () => {
    const colour = (text: string) =>
      text
        .replace(/^(\s*)([-+] .*)$/gm, "$1\u001b[31m$2\u001b[39m")
        .replace(/FAIL/g, "\u001b[1mFAIL\u001b[22m");
    const coloured: IterationCheck = {
      ...SEED_CHECK,
      testResult: { status: "fail", output: colour(STRING_USER_ID_OUTPUT) },
      history: SEED_ATTEMPTS.slice(0, 2).map((attempt) => ({
        ...attempt,
        testResult: { status: "fail", output: colour(attempt.testResult.output) },
      })),
    };
    expect(escalation({ check: coloured, reason: "MAX_ITERATIONS", control })).toEqual(result);
  });

  it("says what ran out when another condition escalates", () => {
    const budget = escalation({ check: SEED_CHECK, reason: "BUDGET_EXHAUSTED", control });
    expect(budget.question.split("\n")[0]).toBe(
      "Budget exhausted after 3 attempts; the test still fails due to userId format.",
    );
  });
});

describe("escalation without a pattern", () => {
  const check: IterationCheck = {
    taskId: "task-9",
    currentIteration: 2,
    testResult: { status: "fail", output: "Error: connect ECONNREFUSED 127.0.0.1:5432" },
    reviewResult: { status: "pending", feedback: "" },
    history: [failing(1, "TypeError: Cannot read properties of undefined (reading 'id')")],
  };

  it("has no pattern and a question that lists what was tried", () => {
    const result = escalation({ check, reason: "MAX_ITERATIONS", control });
    expect(result.context.patternDetected).toBeNull();
    expect(result.question).toBe(
      [
        "After 2 attempts, the test still fails: connect ECONNREFUSED 127.0.0.1:5432.",
        "",
        "Tried so far:",
        "Iteration 1: Test failed - Cannot read properties of undefined (reading 'id')",
        "Iteration 2: Test failed - connect ECONNREFUSED 127.0.0.1:5432",
        "",
        "How should this task continue?",
        "1. Continue with guidance (grant more attempts)",
        "2. Abort this task",
      ].join("\n"),
    );
  });

  it("fits the options to the condition and to where the attempt stands", () => {
    const time = escalation({ check, reason: "TIME_LIMIT", control }).question;
    expect(time).toMatch(/^Time limit reached after 2 attempts; the test still fails: /);
    expect(time).toContain("1. Continue with guidance (extend the time limit)");

    const pending = escalation({
      check: { ...check, testResult: { status: "pass", output: "ok" } },
      reason: "BUDGET_EXHAUSTED",
      control,
    }).question;
    expect(pending).toMatch(
      /^Budget exhausted after 2 attempts; the tests pass and the review is still pending\./,
    );
    expect(pending).toMatch(
      /1\. Approve as is \(the tests pass\)\n2\. Continue with guidance \(raise the budget\)\n3\. Abort this task$/,
    );

    const once = escalation({
      check: { ...check, currentIteration: 1, history: [] },
      reason: "AUTO_RETRY_DISABLED",
      control,
    }).question;
    expect(once.split("\n")[0]).toBe(
      "Automatic retry is disabled; after 1 attempt, the test fails: connect ECONNREFUSED 127.0.0.1:5432.",
    );
    expect(once).toContain("1. Continue with guidance (retry once more)");
  });

  it("lists only the latest attempts of a long history", () => {
    const history = Array.from({ length: 9 }, (_, index) =>
      failing(index + 1, `Error: step ${index + 1} broke`),
    );
    const question = escalation({
      check: { ...check, currentIteration: 10, history },
      reason: "MAX_ITERATIONS",
      control,
    }).question;
    expect(question).toContain("(5 earlier attempts not shown)\nIteration 6: ");
    expect(question).not.toContain("Iteration 5: ");
  });
});

describe("escalation diff", () => {
  const diff = [
    "diff --git a/src/auth/login.ts b/src/auth/login.ts",
    "--- a/src/auth/login.ts",
    "+++ b/src/auth/login.ts",
    "@@ -1,2 +1,2 @@",
    `-const secret = "${JWT}";`,
    "+return jwt.sign({ userId: String(user.id) }, secret);",
  ].join("\n");

  it("carries the current diff, redacted", () => {
    const result = escalation({
      check: { ...SEED_CHECK, diff },
      reason: "MAX_ITERATIONS",
      control,
    });
    expect(result.context.diff).toContain("+return jwt.sign({ userId: String(user.id) }, secret);");
    expect(result.context.diff).toContain("[REDACTED:jwt]");
    expect(result.context.diff).not.toContain(JWT);
  });

  it("keeps the hunks of the file the failing test points at when the diff is cut", () => {
    const unrelated = [
      "diff --git a/docs/notes.md b/docs/notes.md",
      "--- a/docs/notes.md",
      "+++ b/docs/notes.md",
      "@@ -1,0 +1,400 @@",
      ...Array.from({ length: 400 }, (_, index) => `+note ${index}`),
    ].join("\n");
    const result = escalation({
      check: { ...SEED_CHECK, diff: `${unrelated}\n${diff}` },
      reason: "MAX_ITERATIONS",
      control,
    });
    expect(result.context.diff).toContain("+++ b/src/auth/login.ts");
    expect(result.context.diff).not.toContain("+++ b/docs/notes.md");
    expect(result.context.diff?.split("\n").at(-1)).toBe(
      "… 1 of 2 hunks cut (docs/notes.md) to fit 4000 code points; kept first: the files the failures point at",
    );
  });

  it("falls back to the latest diff in history", () => {
    const history = [
      { ...failing(1, "Error: a"), diff: "old" },
      { ...failing(2, "Error: b"), diff: "newer" },
    ];
    const result = escalation({
      check: { ...SEED_CHECK, history },
      reason: "MAX_ITERATIONS",
      control,
    });
    expect(result.context.diff).toBe("newer");
  });

  it("is left out when escalation_includes_diff is off or no diff is known", () => {
    const off = { ...control, escalationIncludesDiff: false };
    expect(
      "diff" in
        escalation({ check: { ...SEED_CHECK, diff }, reason: "MAX_ITERATIONS", control: off })
          .context,
    ).toBe(false);
    expect(
      "diff" in escalation({ check: SEED_CHECK, reason: "MAX_ITERATIONS", control }).context,
    ).toBe(false);
  });
});

describe("escalation redaction", () => {
  it("never repeats a credential from test output or review", () => {
    const check: IterationCheck = {
      ...SEED_CHECK,
      testResult: { status: "fail", output: `Error: token ${JWT} was rejected by the API` },
      reviewResult: { status: "reject", feedback: `- do not log the token ${JWT}` },
      history: [
        {
          iteration: 2,
          testResult: { status: "pass", output: "" },
          reviewResult: {
            status: "reject",
            feedback: `- remove the hard-coded password=hunter2hunter2`,
          },
        },
      ],
    };
    const result = escalation({ check, reason: "NO_PROGRESS", control });
    const printed = JSON.stringify(result);
    expect(printed).not.toContain(JWT);
    expect(printed).not.toContain("hunter2hunter2");
    expect(result.context.attemptsSummary).toContain("[REDACTED:");
  });
});

describe("escalation properties", () => {
  const status = fc.constantFrom("pass", "fail") as fc.Arbitrary<"pass" | "fail">;
  const review = fc.constantFrom("approve", "reject", "pending") as fc.Arbitrary<
    "approve" | "reject" | "pending"
  >;
  const attempt = fc.record({
    testResult: fc.record({ status, output: fc.string({ maxLength: 300 }) }),
    reviewResult: fc.record({ status: review, feedback: fc.string({ maxLength: 120 }) }),
  });

  it("is deterministic and always ends in numbered options", () => {
    fc.assert(
      fc.property(
        fc.array(attempt, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(
          "MAX_ITERATIONS",
          "NO_PROGRESS",
          "BUDGET_EXHAUSTED",
          "TIME_LIMIT",
          "AUTO_RETRY_DISABLED",
        ),
        (attempts, reason) => {
          const history = attempts
            .slice(0, -1)
            .map((item, index) => ({ ...item, iteration: index + 1 }));
          const current = attempts.at(-1)!;
          const check: IterationCheck = {
            taskId: "t",
            currentIteration: attempts.length,
            ...current,
            history,
          };
          const first = escalation({ check, reason, control });
          expect(escalation({ check, reason, control })).toEqual(first);
          expect(first.question).toMatch(/\n1\. [^\n]+\n2\. [^\n]+(?:\n3\. [^\n]+)?$/);
          expect(first.context.attemptsSummary.split("\n")).toHaveLength(attempts.length + 1);
        },
      ),
    );
  });
});
