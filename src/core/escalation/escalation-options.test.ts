import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide } from "../decide.js";
import { DEFAULT_ITERATION_CONTROL, type IterationCheck } from "../iteration-check.js";
import { escalation } from "./build-escalation.js";
import {
  failing,
  rejected,
  SEED_CHECK,
  STRING_USER_ID_OUTPUT,
} from "./test-support/seed-attempts.js";
import { RUNNER_OUTPUTS } from "../../test-support/runner-outputs.js";

const control = DEFAULT_ITERATION_CONTROL;

/** The question's `N. label` lines, as a reader of the text would pick from. */
function numberedLines(question: string): string[] {
  return question.split("\n").filter((line) => /^\d+\. /.test(line));
}

describe("escalation options", () => {
  it("gives the seed's two answers with the guidance each hands the next attempt", () => {
    const { options } = escalation({ check: SEED_CHECK, reason: "MAX_ITERATIONS", control });
    expect(options).toEqual([
      {
        id: "1",
        label: "String (update test)",
        action: "continue",
        guidance: 'Keep userId a string ("123"); update the test to expect a string.',
      },
      {
        id: "2",
        label: "Number (update implementation)",
        action: "continue",
        guidance: "Make userId a number (123) in the token.",
      },
    ]);
  });

  it("offers a grant of more iterations first when the failing count keeps falling", () => {
    const pytest = RUNNER_OUTPUTS.find((outputs) => outputs.runner === "pytest");
    const attempts = (pytest?.falling ?? []).map((output, index) => failing(index + 1, output));
    const current = attempts.at(-1);
    if (current === undefined) throw new Error("no pytest outputs");
    const check: IterationCheck = {
      ...current,
      taskId: "t",
      currentIteration: current.iteration,
      history: attempts.slice(0, -1),
    };
    const result = escalation({ check, reason: "MAX_ITERATIONS", control });
    expect(result.context.patternDetected).toMatch(/^Converging: failing tests fell 5 → 2 → 1/);
    expect(result.options.map(({ id, label, action }) => [id, label, action])).toEqual([
      ["1", "Grant 1 more iteration", "continue"],
      ["2", "Abort this task", "abort"],
    ]);
    expect(result.options[0]?.guidance).toMatch(/^Keep going: the failing tests fell 5 → 2 → 1\./);
  });

  it("lets a review override be picked as approve-as-is, which continues", () => {
    const check: IterationCheck = {
      ...rejected(2, "- Use the repository's logger, not console.log"),
      taskId: "t",
      currentIteration: 2,
      history: [rejected(1, "- Use the repository's logger, not console.log")],
    };
    const { options } = escalation({ check, reason: "MAX_ITERATIONS", control });
    expect(options.map((option) => [option.label, option.action])).toEqual([
      ["Continue with guidance (grant more attempts)", "continue"],
      ["Approve as is (override the review)", "continue"],
      ["Abort this task", "abort"],
    ]);
    expect(options[0]?.guidance).toContain("address it first: Use the repository's logger");
  });

  it("numbers the options as the question's lines, whatever the attempts", () => {
    const outputs = RUNNER_OUTPUTS.flatMap((runner) => [...runner.falling, runner.oneFailure]);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...outputs, STRING_USER_ID_OUTPUT), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.constantFrom("MAX_ITERATIONS", "NO_PROGRESS", "BUDGET_EXHAUSTED", "TIME_LIMIT"),
        (chosen, reason) => {
          const attempts = chosen.map((output, index) => failing(index + 1, output));
          const current = attempts.at(-1);
          if (current === undefined) return;
          const check: IterationCheck = {
            ...current,
            taskId: "t",
            currentIteration: current.iteration,
            history: attempts.slice(0, -1),
          };
          const { question, options } = escalation({ check, reason, control });
          expect(numberedLines(question)).toEqual(
            options.map((option) => `${option.id}. ${option.label}`),
          );
          expect(options.map((option) => option.id)).toEqual(
            options.map((_, index) => String(index + 1)),
          );
          // Only the type question leaves aborting to a free answer; every other one offers it.
          expect(options.some((option) => option.action === "abort")).toBe(
            !question.includes("Which format should be used?"),
          );
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("NO_PROGRESS names the repetition", () => {
  const jest = RUNNER_OUTPUTS.find((outputs) => outputs.runner === "jest");
  const output = jest?.oneFailure ?? "";

  it("says what the loop is stuck on and since when, through decide", () => {
    const decision = decide({
      iterationControl: { ...control, maxIterations: 10 },
      stopConditions: { noProgress: { window: 2 } },
      iterationCheck: {
        ...failing(3, output),
        taskId: "t",
        currentIteration: 3,
        history: [failing(1, STRING_USER_ID_OUTPUT), failing(2, output)],
      },
    });
    expect(decision.action === "escalate" && decision.reason).toBe("NO_PROGRESS");
    if (decision.action !== "escalate") return;
    expect(decision.context.patternDetected).toMatch(
      /^Stuck on ".+" since iteration 2 \(2 attempts in a row\)$/,
    );
  });

  it("adds the repetition to a more specific pattern", () => {
    const check: IterationCheck = { ...SEED_CHECK, history: [failing(2, STRING_USER_ID_OUTPUT)] };
    const result = escalation({ check, reason: "NO_PROGRESS", control });
    expect(result.context.patternDetected).toBe(
      'userId format mismatch between token and test expectation; stuck on "userId present but wrong format (string instead of number)" since iteration 2 (2 attempts in a row)',
    );
    // The type question stays: the repetition is context, the choice is the type.
    expect(result.options.map((option) => option.label)).toEqual([
      "String (update test)",
      "Number (update implementation)",
    ]);
  });

  it("names an oscillation", () => {
    const [a, b] = [STRING_USER_ID_OUTPUT, output];
    const check: IterationCheck = {
      ...failing(4, b),
      taskId: "t",
      currentIteration: 4,
      history: [failing(1, a), failing(2, b), failing(3, a)],
    };
    const result = escalation({ check, reason: "NO_PROGRESS", control });
    expect(result.context.patternDetected).toMatch(
      /^Oscillating between ".+" and ".+" since iteration 1$/,
    );
  });
});
