import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { DEFAULT_ITERATION_CONTROL } from "../core/iteration-check.js";
import type { Decision } from "../core/decision.js";
import {
  decodeConfigDocument,
  decodeDecideDocument,
  encodeDecision,
  type DecideSettings,
} from "./decide-document.js";
import { InputError } from "./input-error.js";
import { parseText } from "./parse-text.js";
import { SEED_DECIDE_INPUT } from "../core/test-support/seed-decide-input.js";

type Doc = Record<string, unknown>;

/** The smallest valid `decide` document: attempt 1, tests failed, review pending. */
function minimal(check: Doc = {}, rest: Doc = {}): Doc {
  return {
    ...rest,
    iteration_check: {
      task_id: "task-003",
      current_iteration: 1,
      test_result: { status: "fail", output: "boom" },
      review_result: { status: "pending" },
      ...check,
    },
  };
}

/** Decodes a document given as YAML text, or as a value written out as YAML first. */
function decode(input: string | Doc, config: DecideSettings = {}) {
  const text = typeof input === "string" ? input : stringify(input);
  return decodeDecideDocument(parseText(text, "decide.yaml"), config);
}

/** The message of the InputError that decoding raises. */
function errorOf(input: string | Doc, config?: DecideSettings): string {
  try {
    decode(input, config);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error(`decoded without error: ${JSON.stringify(input)}`);
}

function configErrorOf(text: string): string {
  try {
    decodeConfigDocument(parseText(text, "config.yaml"));
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error(`decoded without error: ${text}`);
}

const attempt = (iteration: number, extra: Doc = {}): Doc => ({
  iteration,
  test_result: { status: "fail" },
  review_result: { status: "pending" },
  ...extra,
});

describe("decodeDecideDocument: valid documents", () => {
  it("decodes the seed's example with every setting", () => {
    const text = readFileSync(
      new URL("../../examples/seed/iteration-check.yaml", import.meta.url),
      "utf8",
    );
    expect(decode(text)).toEqual(SEED_DECIDE_INPUT);
  });

  it("fills in the defaults: iteration_control's, and empty output and feedback", () => {
    expect(decode(minimal({ test_result: { status: "pass" } }))).toEqual({
      iterationControl: DEFAULT_ITERATION_CONTROL,
      stopConditions: {},
      iterationCheck: {
        taskId: "task-003",
        currentIteration: 1,
        testResult: { status: "pass", output: "" },
        reviewResult: { status: "pending", feedback: "" },
      },
    });
  });

  it.each([
    ["PASS", "APPROVE", "pass", "approve"],
    ["Fail", "Reject", "fail", "reject"],
    ["pAsS", "PENDING", "pass", "pending"],
  ])("matches statuses case-insensitively: %s / %s", (test, review, testOut, reviewOut) => {
    const check = decode(
      minimal({ test_result: { status: test }, review_result: { status: review } }),
    ).iterationCheck;
    expect(check.testResult.status).toBe(testOut);
    expect(check.reviewResult.status).toBe(reviewOut);
  });

  it("decodes every optional field of iteration_check to camelCase", () => {
    const decoded = decode(
      minimal({
        current_iteration: 3,
        max_iterations: 5,
        spend: 1.5,
        score: null,
        scores: [0.1, 0.2],
        signatures: ["a", "b"],
        elapsed_ms: 0,
        approval: { decision: "APPROVE", by: "alice", note: "ok" },
        diff: "--- a\n+++ b\n",
        history: [attempt(1, { diff: "d1", score: 0.4 }), attempt(2)],
      }),
    ).iterationCheck;
    expect(decoded).toMatchObject({
      maxIterations: 5,
      spend: 1.5,
      score: null,
      scores: [0.1, 0.2],
      signatures: ["a", "b"],
      elapsedMs: 0,
      approval: { decision: "approve", by: "alice", note: "ok" },
      diff: "--- a\n+++ b\n",
      history: [
        {
          iteration: 1,
          testResult: { status: "fail", output: "" },
          reviewResult: { status: "pending", feedback: "" },
          diff: "d1",
          score: 0.4,
        },
        { iteration: 2 },
      ],
    });
  });

  it("accepts history with gaps, as long as it is in order and below current_iteration", () => {
    expect(
      decode(minimal({ current_iteration: 5, history: [attempt(1), attempt(4)] })).iterationCheck
        .history,
    ).toHaveLength(2);
    expect(decode(minimal({ history: [] })).iterationCheck.history).toEqual([]);
  });

  it("decodes stop_conditions, null meaning off", () => {
    expect(
      decode(
        minimal(
          {},
          {
            stop_conditions: {
              budget_cap: 0,
              stop_score: null,
              no_progress: { window: 2 },
              time_limit_ms: 1000,
            },
          },
        ),
      ).stopConditions,
    ).toEqual({ budgetCap: 0, stopScore: null, noProgress: { window: 2 }, timeLimitMs: 1000 });
  });
});

describe("decodeDecideDocument: strictness (SPEC §6)", () => {
  it.each([
    [
      "top level",
      minimal({}, { iteration_controll: {} }),
      'document: unknown key "iteration_controll" (did you mean "iteration_control"?)',
    ],
    [
      "top level",
      minimal({}, { stop_condition: {} }),
      'document: unknown key "stop_condition" (did you mean "stop_conditions"?)',
    ],
    [
      "iteration_control",
      minimal({}, { iteration_control: { feedback_max_len: 200 } }),
      'iteration_control: unknown key "feedback_max_len" (did you mean "feedback_max_length"?)',
    ],
    [
      "iteration_control",
      minimal({}, { iteration_control: { max_iteration: 5 } }),
      'iteration_control: unknown key "max_iteration" (did you mean "max_iterations"?)',
    ],
    [
      "stop_conditions",
      minimal({}, { stop_conditions: { budget_capp: 4 } }),
      'stop_conditions: unknown key "budget_capp" (did you mean "budget_cap"?)',
    ],
    [
      "no_progress",
      minimal({}, { stop_conditions: { no_progress: { windows: 3 } } }),
      'stop_conditions.no_progress: unknown key "windows" (did you mean "window"?)',
    ],
    [
      "iteration_check",
      minimal({ max_iteration: 3 }),
      'iteration_check: unknown key "max_iteration" (did you mean "max_iterations"?)',
    ],
    [
      "iteration_check",
      minimal({ currentIteration: 1 }),
      'iteration_check: unknown key "currentIteration" (did you mean "current_iteration"?)',
    ],
    [
      "test_result",
      minimal({ test_result: { status: "fail", outptu: "x" } }),
      'iteration_check.test_result: unknown key "outptu" (did you mean "output"?)',
    ],
    [
      "review_result",
      minimal({ review_result: { status: "reject", feedbak: "x" } }),
      'iteration_check.review_result: unknown key "feedbak" (did you mean "feedback"?)',
    ],
    [
      "approval",
      minimal({ approval: { decison: "approve" } }),
      'iteration_check.approval: unknown key "decison" (did you mean "decision"?)',
    ],
    [
      "history[i]",
      minimal({ current_iteration: 3, history: [attempt(1), attempt(2, { scor: 1 })] }),
      'iteration_check.history[1]: unknown key "scor" (did you mean "score"?)',
    ],
    [
      "history[i].test_result",
      minimal({ current_iteration: 2, history: [attempt(1, { test_result: { statu: "fail" } })] }),
      'iteration_check.history[0].test_result: unknown key "statu" (did you mean "status"?)',
    ],
  ])("names an unknown key in %s and suggests the closest one", (_level, input, message) => {
    expect(errorOf(input)).toBe(message);
  });

  it("suggests nothing for an unrelated key", () => {
    expect(errorOf(minimal({}, { zzzzzz: 1 }))).toBe('document: unknown key "zzzzzz"');
    expect(errorOf(minimal({ colour: "red" }))).toBe('iteration_check: unknown key "colour"');
    expect(errorOf(minimal({}, { stop_conditions: { max_iterations: 3 } }))).toBe(
      'stop_conditions: unknown key "max_iterations"',
    );
  });

  it("does not take a misspelt budget_cap to mean uncapped", () => {
    expect(errorOf(minimal({}, { stop_conditions: { budget_capp: 4 } }))).toContain("budget_capp");
    expect(errorOf(minimal({}, { stop_conditions: { "budget-cap": 4 } }))).toBe(
      'stop_conditions: unknown key "budget-cap" (did you mean "budget_cap"?)',
    );
  });

  it.each([
    ["iteration_check", minimal(), "iteration_check"],
    ["iteration_check.task_id", minimal(), "iteration_check.task_id"],
    ["iteration_check.current_iteration", minimal(), "iteration_check.current_iteration"],
    ["iteration_check.test_result", minimal(), "iteration_check.test_result"],
    ["iteration_check.test_result.status", minimal(), "iteration_check.test_result.status"],
    ["iteration_check.review_result.status", minimal(), "iteration_check.review_result.status"],
  ])("names the missing required field %s", (_name, base, field) => {
    const path = field.split(".");
    const copy = structuredClone(base);
    let parent: Doc = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Doc;
    Reflect.deleteProperty(parent, path.at(-1) as string);
    expect(errorOf(copy)).toBe(`${field}: is required but missing`);
  });

  it("names a missing field inside history", () => {
    expect(
      errorOf(
        minimal({
          current_iteration: 2,
          history: [{ test_result: { status: "fail" }, review_result: { status: "pending" } }],
        }),
      ),
    ).toBe("iteration_check.history[0].iteration: is required but missing");
  });

  it.each([
    [
      '"3" for current_iteration',
      minimal({ current_iteration: "3" }),
      'iteration_check.current_iteration: expected an integer >= 1, got "3" (a string)',
    ],
    [
      '"3" for max_iterations',
      minimal({}, { iteration_control: { max_iterations: "3" } }),
      'iteration_control.max_iterations: expected an integer >= 1, got "3" (a string)',
    ],
    [
      '"true" for a flag',
      minimal({}, { iteration_control: { auto_retry_on_test_fail: "true" } }),
      'iteration_control.auto_retry_on_test_fail: expected true or false, got "true" (a string)',
    ],
    [
      "yes for a flag",
      minimal({}, { iteration_control: { escalation_includes_diff: "yes" } }),
      'iteration_control.escalation_includes_diff: expected true or false, got "yes" (a string)',
    ],
    [
      "a number for task_id",
      minimal({ task_id: 3 }),
      "iteration_check.task_id: expected a non-empty string, got 3 (a number)",
    ],
    [
      "an empty task_id",
      minimal({ task_id: "" }),
      'iteration_check.task_id: expected a non-empty string, got "" (a string)',
    ],
    [
      "a list for test_result",
      minimal({ test_result: ["fail"] }),
      "iteration_check.test_result: expected a mapping with status (pass|fail) and output, got a list",
    ],
    [
      "a string for review_result",
      minimal({ review_result: "pending" }),
      'iteration_check.review_result: expected a mapping with status (approve|reject|pending) and feedback, got "pending" (a string)',
    ],
    [
      "an empty list for iteration_control",
      minimal({}, { iteration_control: [] }),
      "iteration_control: expected a mapping, got a list",
    ],
    [
      "a mapping for history",
      minimal({ history: { iteration: 1 } }),
      "iteration_check.history: expected a list, got a mapping",
    ],
    [
      "a list for a history entry",
      minimal({ current_iteration: 2, history: [[1]] }),
      "iteration_check.history[0]: expected a mapping with iteration, test_result, review_result, got a list",
    ],
    [
      "an unknown test status",
      minimal({ test_result: { status: "passed" } }),
      'iteration_check.test_result.status: expected one of pass, fail, got "passed" (a string)',
    ],
    [
      "a review status for a test",
      minimal({ test_result: { status: "approve" } }),
      'iteration_check.test_result.status: expected one of pass, fail, got "approve" (a string)',
    ],
    [
      "an unknown review status",
      minimal({ review_result: { status: "Maybe" } }),
      'iteration_check.review_result.status: expected one of approve, reject, pending, got "maybe" (a string)',
    ],
    [
      "a boolean status",
      minimal({ test_result: { status: true } }),
      "iteration_check.test_result.status: expected one of pass, fail, got true (a boolean)",
    ],
    [
      "a number for output",
      minimal({ test_result: { status: "fail", output: 3 } }),
      "iteration_check.test_result.output: expected a string, got 3 (a number)",
    ],
    [
      "null for output",
      minimal({ test_result: { status: "fail", output: null } }),
      "iteration_check.test_result.output: expected a string, got null",
    ],
    [
      "a number for diff",
      minimal({ diff: 1 }),
      "iteration_check.diff: expected a string, got 1 (a number)",
    ],
  ])("refuses %s, naming the field and the value", (_name, input, message) => {
    expect(errorOf(input)).toBe(message);
  });

  it.each([
    [
      "spend: .inf",
      "1",
      "spend: .inf",
      "iteration_check.spend: expected a finite number >= 0, got Infinity (a number)",
    ],
    [
      "spend: .nan",
      "1",
      "spend: .nan",
      "iteration_check.spend: expected a finite number >= 0, got NaN (a number)",
    ],
    [
      "score: -.inf",
      "1",
      "score: -.inf",
      "iteration_check.score: expected a finite number, got -Infinity (a number)",
    ],
    [
      "elapsed_ms: .Inf",
      "1",
      "elapsed_ms: .Inf",
      "iteration_check.elapsed_ms: expected a finite number >= 0, got Infinity (a number)",
    ],
    [
      "scores: [.nan]",
      "1",
      "scores: [.nan]",
      "iteration_check.scores[0]: expected a finite number, got NaN (a number)",
    ],
    [
      "current_iteration: .inf",
      ".inf",
      "",
      "iteration_check.current_iteration: expected an integer >= 1, got Infinity (a number)",
    ],
    [
      "current_iteration: .nan",
      ".nan",
      "",
      "iteration_check.current_iteration: expected an integer >= 1, got NaN (a number)",
    ],
  ])("refuses the non-finite %s written in YAML", (_name, current, line, message) => {
    const text = `iteration_check:
  task_id: t
  current_iteration: ${current}
  test_result: {status: fail}
  review_result: {status: pending}
  ${line}
`;
    expect(errorOf(text)).toBe(message);
  });

  it("refuses non-finite limits in stop_conditions and JSON's 1e999", () => {
    expect(errorOf(minimal({}, { stop_conditions: { budget_cap: Infinity } }))).toBe(
      "stop_conditions.budget_cap: expected a finite number >= 0, got Infinity (a number)",
    );
    expect(errorOf(minimal({}, { stop_conditions: { stop_score: NaN } }))).toBe(
      "stop_conditions.stop_score: expected a finite number, got NaN (a number)",
    );
    const json = JSON.stringify(minimal({}, { stop_conditions: { time_limit_ms: 0 } })).replace(
      '"time_limit_ms":0',
      '"time_limit_ms":1e999',
    );
    expect(errorOf(json)).toBe(
      "stop_conditions.time_limit_ms: expected a finite number >= 0, got Infinity (a number)",
    );
  });

  it.each([
    [
      "current_iteration: 0",
      minimal({ current_iteration: 0 }),
      "iteration_check.current_iteration: expected an integer >= 1, got 0 (a number)",
    ],
    [
      "current_iteration: 2.5",
      minimal({ current_iteration: 2.5 }),
      "iteration_check.current_iteration: expected an integer >= 1, got 2.5 (a number)",
    ],
    [
      "a negative current_iteration",
      minimal({ current_iteration: -1 }),
      "iteration_check.current_iteration: expected an integer >= 1, got -1 (a number)",
    ],
    [
      "iteration_check.max_iterations: 0",
      minimal({ max_iterations: 0 }),
      "iteration_check.max_iterations: expected an integer >= 1, got 0 (a number)",
    ],
    [
      "iteration_control.max_iterations: 0",
      minimal({}, { iteration_control: { max_iterations: 0 } }),
      "iteration_control.max_iterations: expected an integer >= 1, got 0 (a number)",
    ],
    [
      "feedback_max_length: 0",
      minimal({}, { iteration_control: { feedback_max_length: 0 } }),
      "iteration_control.feedback_max_length: expected an integer >= 1, got 0 (a number)",
    ],
    [
      "feedback_max_length: 2.5",
      minimal({}, { iteration_control: { feedback_max_length: 2.5 } }),
      "iteration_control.feedback_max_length: expected an integer >= 1, got 2.5 (a number)",
    ],
    [
      "no_progress.window: 1",
      minimal({}, { stop_conditions: { no_progress: { window: 1 } } }),
      "stop_conditions.no_progress.window: expected an integer >= 2, got 1 (a number)",
    ],
    [
      "a negative spend",
      minimal({ spend: -1 }),
      "iteration_check.spend: expected a finite number >= 0, got -1 (a number)",
    ],
    [
      "a negative elapsed_ms",
      minimal({ elapsed_ms: -1 }),
      "iteration_check.elapsed_ms: expected a finite number >= 0, got -1 (a number)",
    ],
    [
      "a negative budget_cap",
      minimal({}, { stop_conditions: { budget_cap: -0.5 } }),
      "stop_conditions.budget_cap: expected a finite number >= 0, got -0.5 (a number)",
    ],
    [
      "a negative time_limit_ms",
      minimal({}, { stop_conditions: { time_limit_ms: -1 } }),
      "stop_conditions.time_limit_ms: expected a finite number >= 0, got -1 (a number)",
    ],
    [
      "a history iteration of 2.5",
      minimal({ current_iteration: 3, history: [attempt(2.5)] }),
      "iteration_check.history[0].iteration: expected an integer >= 1, got 2.5 (a number)",
    ],
    [
      "a history iteration of 0",
      minimal({ current_iteration: 3, history: [attempt(0)] }),
      "iteration_check.history[0].iteration: expected an integer >= 1, got 0 (a number)",
    ],
  ])("refuses %s", (_name, input, message) => {
    expect(errorOf(input)).toBe(message);
  });

  it.each([
    ["out of order", 3, [2, 1], 1, 1],
    ["repeated", 3, [1, 1], 1, 1],
    ["at current_iteration", 3, [1, 3], 1, 3],
    ["beyond current_iteration", 3, [5], 0, 5],
    ["on the first attempt", 1, [1], 0, 1],
  ])("refuses history %s, naming the entry", (_name, current, iterations, index, got) => {
    expect(
      errorOf(minimal({ current_iteration: current, history: iterations.map((n) => attempt(n)) })),
    ).toBe(
      `iteration_check.history[${index}].iteration: expected attempts in increasing order, each below current_iteration ${current}, got ${got}`,
    );
  });

  it.each([
    [
      "a list",
      "- iteration_check: {}\n",
      "document: expected a mapping with iteration_check, got a list",
    ],
    ["an empty list", "[]\n", "document: expected a mapping with iteration_check, got a list"],
    [
      "a string",
      "iteration_check\n",
      'document: expected a mapping with iteration_check, got "iteration_check" (a string)',
    ],
    ["a number", "3\n", "document: expected a mapping with iteration_check, got 3 (a number)"],
    ["an empty mapping", "{}\n", "iteration_check: is required but missing"],
  ])("refuses a top-level %s", (_name, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it("refuses empty and unparsable documents, naming the source", () => {
    expect(() => decode("")).toThrow("decide.yaml: the document is empty");
    expect(() => decode("iteration_check: {task_id: t\n")).toThrow(
      /^decide\.yaml: not valid YAML or JSON at line \d+, column \d+: /,
    );
    expect(() => decode("iteration_check: {}\niteration_check: {}\n")).toThrow(
      'decide.yaml: not valid YAML or JSON at line 2, column 1: duplicate key "iteration_check"',
    );
  });
});

describe("settings: the input document > --config > defaults, field by field", () => {
  const config = decodeConfigDocument(
    parseText(
      `iteration_control:
  max_iterations: 7
  auto_retry_on_test_fail: false
  feedback_max_length: 200
stop_conditions:
  budget_cap: 10
  stop_score: 0.9
`,
      "config.yaml",
    ),
  );

  it("decodes the config file to camelCase", () => {
    expect(config).toEqual({
      iterationControl: { maxIterations: 7, autoRetryOnTestFail: false, feedbackMaxLength: 200 },
      stopConditions: { budgetCap: 10, stopScore: 0.9 },
    });
  });

  it("takes the config's values over the defaults", () => {
    const decoded = decode(minimal(), config);
    expect(decoded.iterationControl).toEqual({
      ...DEFAULT_ITERATION_CONTROL,
      maxIterations: 7,
      autoRetryOnTestFail: false,
      feedbackMaxLength: 200,
    });
    expect(decoded.stopConditions).toEqual({ budgetCap: 10, stopScore: 0.9 });
  });

  it("takes the document's values over the config's, one field at a time", () => {
    const decoded = decode(
      minimal(
        {},
        {
          iteration_control: { max_iterations: 4, escalation_includes_diff: false },
          stop_conditions: { budget_cap: 2, time_limit_ms: 5000 },
        },
      ),
      config,
    );
    expect(decoded.iterationControl).toEqual({
      maxIterations: 4, // document
      autoRetryOnTestFail: false, // config
      autoRetryOnReviewReject: true, // default
      escalationIncludesDiff: false, // document
      feedbackMaxLength: 200, // config
    });
    expect(decoded.stopConditions).toEqual({ budgetCap: 2, stopScore: 0.9, timeLimitMs: 5000 });
  });

  it("lets the document switch a configured limit off with null", () => {
    expect(
      decode(minimal({}, { stop_conditions: { budget_cap: null } }), config).stopConditions,
    ).toEqual({ budgetCap: null, stopScore: 0.9 });
  });

  it("keeps iteration_check.max_iterations beside iteration_control's, for the core to prefer", () => {
    const decoded = decode(minimal({ max_iterations: 2 }), config);
    expect(decoded.iterationCheck.maxIterations).toBe(2);
    expect(decoded.iterationControl.maxIterations).toBe(7);
  });

  it("accepts an empty config file section by section", () => {
    expect(decodeConfigDocument(parseText("{}", "c"))).toEqual({});
    expect(decodeConfigDocument(parseText("iteration_control: {}\n", "c"))).toEqual({
      iterationControl: {},
    });
  });

  it.each([
    [
      "an unknown key",
      "stop_conditions: {budget_capp: 4}\n",
      'stop_conditions: unknown key "budget_capp" (did you mean "budget_cap"?)',
    ],
    [
      "an iteration_check",
      "iteration_check: {task_id: t}\n",
      'document: unknown key "iteration_check"',
    ],
    [
      "a wrong type",
      "iteration_control: {max_iterations: '3'}\n",
      'iteration_control.max_iterations: expected an integer >= 1, got "3" (a string)',
    ],
    [
      "max_iterations: 0",
      "iteration_control: {max_iterations: 0}\n",
      "iteration_control.max_iterations: expected an integer >= 1, got 0 (a number)",
    ],
    [
      "a list",
      "[]\n",
      "document: expected a mapping with iteration_control and/or stop_conditions, got a list",
    ],
  ])("refuses a config file with %s", (_name, text, message) => {
    expect(configErrorOf(text)).toBe(message);
  });
});

describe("encodeDecision", () => {
  it("prints the decision in the seed's shape, snake_case", () => {
    const decision: Decision = {
      action: "retry",
      taskId: "task-003",
      iteration: 3,
      reason: "TEST_FAILED",
      fired: [],
      feedback: {
        summary: "Test failed: token lacks userId",
        actionableItems: ["Fix src/auth/login.test.ts:14"],
        priority: "high",
      },
    };
    expect(encodeDecision(decision)).toEqual({
      decision: {
        action: "retry",
        task_id: "task-003",
        iteration: 3,
        reason: "TEST_FAILED",
        fired: [],
        feedback: {
          summary: "Test failed: token lacks userId",
          actionable_items: ["Fix src/auth/login.test.ts:14"],
          priority: "high",
        },
      },
    });
  });
});
