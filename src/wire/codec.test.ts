import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { camelKey, fromWire, RENAMED_KEYS_KEPT, snakeKey, toWire } from "./codec.js";

describe("camelKey and snakeKey", () => {
  it.each([
    ["feedback_max_length", "feedbackMaxLength"],
    ["elapsed_ms", "elapsedMs"],
    ["time_limit_ms", "timeLimitMs"],
    ["auto_retry_on_test_fail", "autoRetryOnTestFail"],
    ["task_id", "taskId"],
    ["iteration", "iteration"],
  ])("%s ↔ %s", (wire, typescript) => {
    expect(camelKey(wire)).toBe(typescript);
    expect(snakeKey(typescript)).toBe(wire);
  });

  it("round-trips every snake_case key made of lower-case words", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (words) => {
        const wire = words.join("_");
        expect(snakeKey(camelKey(wire))).toBe(wire);
      }),
    );
  });
});

const WIRE_DECISION = {
  decision: {
    action: "escalate",
    task_id: "task-003",
    iteration: 3,
    reason: "MAX_ITERATIONS",
    fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
    context: { attempts_summary: "Iteration 1: …", pattern_detected: null },
    question: "1. …\n2. …\n",
  },
};

describe("fromWire and toWire", () => {
  it("convert a nested document both ways, lists included", () => {
    const typescript = fromWire(WIRE_DECISION);
    expect(typescript).toEqual({
      decision: {
        action: "escalate",
        taskId: "task-003",
        iteration: 3,
        reason: "MAX_ITERATIONS",
        fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
        context: { attemptsSummary: "Iteration 1: …", patternDetected: null },
        question: "1. …\n2. …\n",
      },
    });
    expect(toWire(typescript)).toEqual(WIRE_DECISION);
  });

  it("converts keys inside lists of mappings", () => {
    expect(
      fromWire({ history: [{ test_result: { status: "fail" }, review_result: null }] }),
    ).toEqual({ history: [{ testResult: { status: "fail" }, reviewResult: null }] });
  });

  it("leaves the condition codes that key `reasons` as they are, both ways", () => {
    const verdict = {
      verdict: {
        stop: true,
        condition: "BUDGET_EXHAUSTED",
        reasons: {
          BUDGET_EXHAUSTED: "spend 4.2 reached budget_cap 4",
          MAX_ITERATIONS: "iteration 3 reached max_iterations 3",
          my_custom_code: "kept",
          customCode: "kept too",
        },
        headroom: { iterations_left: 0, budget_left: 0 },
      },
    };
    const typescript = fromWire(verdict) as { verdict: { reasons: object; headroom: object } };
    expect(typescript.verdict.reasons).toEqual(verdict.verdict.reasons);
    expect(typescript.verdict.headroom).toEqual({ iterationsLeft: 0, budgetLeft: 0 });
    expect(toWire(typescript)).toEqual(verdict);
    expect(
      Object.keys((toWire({ reasons: { customCode: "x" } }) as { reasons: object }).reasons),
    ).toEqual(["customCode"]);
  });

  it("drops undefined fields and keeps null, scalars and strings untouched", () => {
    expect(toWire({ budgetLeft: null, note: undefined, items: ["a_b", "cD"] })).toEqual({
      budget_left: null,
      items: ["a_b", "cD"],
    });
    expect(toWire("task_id")).toBe("task_id");
    expect(fromWire(3)).toBe(3);
    expect(fromWire(null)).toBeNull();
  });

  it("round-trips any JSON document whose keys are snake_case", () => {
    const key = fc.stringMatching(/^[a-z]{1,6}(_[a-z]{1,6}){0,3}$/);
    const document = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(document, (wire) => {
        expect(toWire(fromWire(wire))).toEqual(wire);
      }),
    );
  });

  it("renames every key alike, past the keys it remembers too, and again the same", () => {
    const count = RENAMED_KEYS_KEPT + 50;
    const typescript = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`key${i}Name`, i]),
    );
    const wire = Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}_name`, i]));
    for (let round = 0; round < 2; round += 1) {
      expect(toWire(typescript)).toEqual(wire);
      expect(fromWire(wire)).toEqual(typescript);
    }
  });
});
