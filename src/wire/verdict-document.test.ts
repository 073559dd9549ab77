import { describe, expect, it } from "vitest";
import { verdict } from "../core/verdict.js";
import { InputError } from "./input-error.js";
import { parseText } from "./parse-text.js";
import { decodeVerdictDocument, encodeVerdict } from "./verdict-document.js";

/** The message of the InputError that decoding `text` raises. */
function errorOf(text: string): string {
  try {
    decodeVerdictDocument(parseText(text, "verdict.yaml"));
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error(`decoded without error:\n${text}`);
}

/** A valid document with one line of `counters` and one of `policy` added. */
function document(counters = "", policy = ""): string {
  return `counters:\n  iteration: 1\n${counters}policy:\n  max_iterations: 3\n${policy}`;
}

describe("decodeVerdictDocument: valid documents", () => {
  it("decodes SPEC §2's example into the core's camelCase input", () => {
    const text = `
counters:
  iteration: 3
  spend: 4.20
  score: 0.82
  approval: null
  scores: [0.7, 0.8, 0.82]
  signatures: ["a1f", "a1f"]
  elapsed_ms: 120000
policy:
  max_iterations: 3
  budget_cap: 4
  stop_score: 0.9
  no_progress: {window: 3, min_delta: 0.01}
  time_limit_ms: null
`;
    expect(decodeVerdictDocument(parseText(text, "verdict.yaml"))).toEqual({
      counters: {
        iteration: 3,
        spend: 4.2,
        score: 0.82,
        approval: null,
        scores: [0.7, 0.8, 0.82],
        signatures: ["a1f", "a1f"],
        elapsedMs: 120000,
      },
      policy: {
        maxIterations: 3,
        budgetCap: 4,
        stopScore: 0.9,
        noProgress: { window: 3, minDelta: 0.01 },
        timeLimitMs: null,
      },
    });
  });

  it("accepts iteration 0 (before the first pass), zero spend and a cap of 0", () => {
    expect(
      decodeVerdictDocument(
        parseText(
          "counters: {iteration: 0, spend: 0}\npolicy: {max_iterations: 1, budget_cap: 0}",
          "v",
        ),
      ),
    ).toEqual({ counters: { iteration: 0, spend: 0 }, policy: { maxIterations: 1, budgetCap: 0 } });
  });

  it("reads JSON as well", () => {
    expect(
      decodeVerdictDocument(
        parseText('{"counters": {"iteration": 2}, "policy": {"max_iterations": 5}}', "v.json"),
      ),
    ).toEqual({ counters: { iteration: 2 }, policy: { maxIterations: 5 } });
  });

  it("matches the approval decision case-insensitively and stores it in lower case", () => {
    const decoded = decodeVerdictDocument(
      parseText(document("  approval: {decision: APPROVE, by: alice}\n"), "v"),
    );
    expect(decoded.counters.approval).toEqual({ decision: "approve", by: "alice" });
    const rejected = decodeVerdictDocument(
      parseText(document("  approval: {decision: Reject}\n"), "v"),
    );
    expect(rejected.counters.approval).toEqual({ decision: "reject" });
  });

  it("accepts negative and any finite scores (a score is not a counter)", () => {
    const decoded = decodeVerdictDocument(
      parseText(document("  score: -0.5\n  scores: [-1, 0, 2.5]\n", "  stop_score: -1\n"), "v"),
    );
    expect(decoded.counters.score).toBe(-0.5);
    expect(decoded.policy.stopScore).toBe(-1);
  });
});

describe("decodeVerdictDocument: strictness (SPEC §6)", () => {
  it.each([
    [
      "top level",
      "counters: {iteration: 1}\npolicy: {max_iterations: 3}\npolcy: {}\n",
      'document: unknown key "polcy" (did you mean "policy"?)',
    ],
    [
      "counters",
      document("  iteraton: 1\n"),
      'counters: unknown key "iteraton" (did you mean "iteration"?)',
    ],
    [
      "counters",
      document("  elapsed: 5\n"),
      'counters: unknown key "elapsed" (did you mean "elapsed_ms"?)',
    ],
    [
      "policy",
      document("", "  budget_capp: 4\n"),
      'policy: unknown key "budget_capp" (did you mean "budget_cap"?)',
    ],
    [
      "policy",
      document("", "  time_limit: 5\n"),
      'policy: unknown key "time_limit" (did you mean "time_limit_ms"?)',
    ],
    [
      "no_progress",
      document("", "  no_progress: {windw: 3}\n"),
      'policy.no_progress: unknown key "windw" (did you mean "window"?)',
    ],
    [
      "no_progress",
      document("", "  no_progress: {min_delt: 0}\n"),
      'policy.no_progress: unknown key "min_delt" (did you mean "min_delta"?)',
    ],
    [
      "approval",
      document("  approval: {decision: approve, byy: bob}\n"),
      'counters.approval: unknown key "byy" (did you mean "by"?)',
    ],
  ])("names an unknown key in %s and suggests the closest one", (_level, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it("reports a misspelt required key as the misspelling, not as a missing key", () => {
    const text = "counters: {iteration: 1}\npolicy: {max_iteration: 3}\n";
    expect(errorOf(text)).toBe(
      'policy: unknown key "max_iteration" (did you mean "max_iterations"?)',
    );
  });

  it("suggests nothing for an unrelated key", () => {
    expect(errorOf(document("  zzzzzz: 1\n"))).toBe('counters: unknown key "zzzzzz"');
    expect(errorOf(document("", "  webhook_url: x\n"))).toBe('policy: unknown key "webhook_url"');
  });

  it.each([
    ["counters", "policy: {max_iterations: 3}\n", "counters: is required but missing"],
    ["policy", "counters: {iteration: 1}\n", "policy: is required but missing"],
    [
      "counters.iteration",
      "counters: {spend: 1}\npolicy: {max_iterations: 3}\n",
      "counters.iteration: is required but missing",
    ],
    [
      "policy.max_iterations",
      "counters: {iteration: 1}\npolicy: {budget_cap: 4}\n",
      "policy.max_iterations: is required but missing",
    ],
    [
      "approval.decision",
      document("  approval: {by: bob}\n"),
      "counters.approval.decision: is required but missing",
    ],
  ])("names the missing required field %s", (_field, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it.each([
    [
      '"3" for an integer',
      document("", "  budget_cap: '4'\n"),
      'policy.budget_cap: expected a finite number >= 0, got "4" (a string)',
    ],
    [
      "a string iteration",
      'counters: {iteration: "3"}\npolicy: {max_iterations: 3}\n',
      'counters.iteration: expected an integer >= 0, got "3" (a string)',
    ],
    [
      "a boolean for a number",
      document("  spend: true\n"),
      "counters.spend: expected a finite number >= 0, got true (a boolean)",
    ],
    [
      "a list for a mapping",
      "counters: [1]\npolicy: {max_iterations: 3}\n",
      "counters: expected a mapping with iteration, spend, score, …, got a list",
    ],
    [
      "an empty list for a mapping with no required key",
      document("", "  no_progress: []\n"),
      "policy.no_progress: expected a mapping with window and min_delta, got a list",
    ],
    [
      "a mapping for a list",
      document("  scores: {a: 1}\n"),
      "counters.scores: expected a list, got a mapping",
    ],
    [
      "a number in the signatures",
      document("  signatures: [a1f, 3]\n"),
      "counters.signatures[1]: expected a string, got 3 (a number)",
    ],
    [
      "a string for the approval",
      document("  approval: yes\n"),
      'counters.approval: expected null or a mapping with decision (approve|reject), by, note, got "yes" (a string)',
    ],
    [
      "an unknown decision",
      document("  approval: {decision: maybe}\n"),
      'counters.approval.decision: expected one of approve, reject, got "maybe" (a string)',
    ],
  ])("refuses %s, naming the field and the value", (_name, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it.each([
    [
      "iteration: .inf",
      "counters: {iteration: .inf}\npolicy: {max_iterations: 3}\n",
      "counters.iteration: expected an integer >= 0, got Infinity (a number)",
    ],
    [
      "spend: .nan",
      document("  spend: .nan\n"),
      "counters.spend: expected a finite number >= 0, got NaN (a number)",
    ],
    [
      "spend: -.inf",
      document("  spend: -.inf\n"),
      "counters.spend: expected a finite number >= 0, got -Infinity (a number)",
    ],
    [
      "score: .inf",
      document("  score: .inf\n"),
      "counters.score: expected a finite number, got Infinity (a number)",
    ],
    [
      "score: .nan",
      document("  score: .NaN\n"),
      "counters.score: expected a finite number, got NaN (a number)",
    ],
    [
      "scores: [.nan]",
      document("  scores: [0.5, .nan]\n"),
      "counters.scores[1]: expected a finite number, got NaN (a number)",
    ],
    [
      "elapsed_ms: .inf",
      document("  elapsed_ms: .inf\n"),
      "counters.elapsed_ms: expected a finite number >= 0, got Infinity (a number)",
    ],
    [
      "budget_cap: .inf",
      document("", "  budget_cap: .inf\n"),
      "policy.budget_cap: expected a finite number >= 0, got Infinity (a number)",
    ],
    [
      "stop_score: -.inf",
      document("", "  stop_score: -.inf\n"),
      "policy.stop_score: expected a finite number, got -Infinity (a number)",
    ],
    [
      "time_limit_ms: .nan",
      document("", "  time_limit_ms: .nan\n"),
      "policy.time_limit_ms: expected a finite number >= 0, got NaN (a number)",
    ],
    [
      "min_delta: .inf",
      document("", "  no_progress: {min_delta: .inf}\n"),
      "policy.no_progress.min_delta: expected a finite number >= 0, got Infinity (a number)",
    ],
  ])("refuses the non-finite %s", (_name, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it("refuses JSON's 1e999, which reads as Infinity", () => {
    expect(
      errorOf('{"counters": {"iteration": 1, "spend": 1e999}, "policy": {"max_iterations": 3}}'),
    ).toBe("counters.spend: expected a finite number >= 0, got Infinity (a number)");
  });

  it.each([
    [
      "a negative iteration",
      "counters: {iteration: -1}\npolicy: {max_iterations: 3}\n",
      "counters.iteration: expected an integer >= 0, got -1 (a number)",
    ],
    [
      "a non-integer iteration",
      "counters: {iteration: 2.5}\npolicy: {max_iterations: 3}\n",
      "counters.iteration: expected an integer >= 0, got 2.5 (a number)",
    ],
    [
      "a negative spend",
      document("  spend: -0.01\n"),
      "counters.spend: expected a finite number >= 0, got -0.01 (a number)",
    ],
    [
      "a negative elapsed_ms",
      document("  elapsed_ms: -5\n"),
      "counters.elapsed_ms: expected a finite number >= 0, got -5 (a number)",
    ],
    [
      "a negative budget_cap",
      document("", "  budget_cap: -1\n"),
      "policy.budget_cap: expected a finite number >= 0, got -1 (a number)",
    ],
    [
      "a negative time_limit_ms",
      document("", "  time_limit_ms: -1\n"),
      "policy.time_limit_ms: expected a finite number >= 0, got -1 (a number)",
    ],
    [
      "max_iterations: 0",
      "counters: {iteration: 1}\npolicy: {max_iterations: 0}\n",
      "policy.max_iterations: expected an integer >= 1, got 0 (a number)",
    ],
    [
      "max_iterations: 2.5",
      "counters: {iteration: 1}\npolicy: {max_iterations: 2.5}\n",
      "policy.max_iterations: expected an integer >= 1, got 2.5 (a number)",
    ],
    [
      "no_progress.window: 1",
      document("", "  no_progress: {window: 1}\n"),
      "policy.no_progress.window: expected an integer >= 2, got 1 (a number)",
    ],
    [
      "a negative min_delta",
      document("", "  no_progress: {min_delta: -0.1}\n"),
      "policy.no_progress.min_delta: expected a finite number >= 0, got -0.1 (a number)",
    ],
  ])("refuses %s", (_name, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it.each([
    [
      "a list",
      "- counters: {iteration: 1}\n- policy: {max_iterations: 3}\n",
      "document: expected a mapping with counters and policy, got a list",
    ],
    [
      "a string",
      "hello\n",
      'document: expected a mapping with counters and policy, got "hello" (a string)',
    ],
    [
      "a number",
      "42\n",
      "document: expected a mapping with counters and policy, got 42 (a number)",
    ],
    ["null", "~\n", "document: expected a mapping with counters and policy, got null"],
  ])("refuses a top-level %s", (_name, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it("shows a long bad value briefly, on one line", () => {
    const message = errorOf(document(`  spend: "${"9".repeat(200)}\\n${"9".repeat(10)}"\n`));
    expect(message).toMatch(
      /^counters\.spend: expected a finite number >= 0, got "9{56}…" \(a string\)$/,
    );
  });

  it("quotes an unknown key so that a line break in it stays visible and on one line", () => {
    expect(errorOf(document('  "bad\\nkey": 1\n'))).toBe('counters: unknown key "bad\\nkey"');
  });
});

describe("encodeVerdict", () => {
  it("prints the verdict in wire shape; condition codes keep their spelling", () => {
    const decoded = decodeVerdictDocument(
      parseText(
        "counters: {iteration: 3, spend: 4.2}\npolicy: {max_iterations: 3, budget_cap: 4}",
        "v",
      ),
    );
    expect(encodeVerdict(verdict(decoded))).toEqual({
      verdict: {
        stop: true,
        condition: "BUDGET_EXHAUSTED",
        fired: ["BUDGET_EXHAUSTED", "MAX_ITERATIONS"],
        reasons: {
          BUDGET_EXHAUSTED: expect.stringContaining("budget_cap 4") as unknown,
          MAX_ITERATIONS: expect.stringContaining("max_iterations 3") as unknown,
        },
        headroom: { iterations_left: 0, budget_left: 0 },
      },
    });
  });

  it("states CONTINUE with empty fired and reasons, and budget_left null when uncapped", () => {
    const decoded = decodeVerdictDocument(parseText(document(), "v"));
    expect(encodeVerdict(verdict(decoded))).toEqual({
      verdict: {
        stop: false,
        condition: "CONTINUE",
        fired: [],
        reasons: {},
        headroom: { iterations_left: 2, budget_left: null },
      },
    });
  });
});
