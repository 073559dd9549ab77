import { describe, expect, it } from "vitest";
import { answerOptions, questionOptions } from "./question-options.js";

describe("questionOptions", () => {
  it("reads the seed's numbered options", () => {
    const question = `After 3 attempts, the test still fails due to userId format.

Which format should be used?
1. String (update test)
2. Number (update implementation)
`;
    expect(questionOptions(question)).toEqual([
      { id: 1, label: "String (update test)", effect: "continue" },
      { id: 2, label: "Number (update implementation)", effect: "continue" },
    ]);
  });

  it("accepts `1)` and keeps the first of two options with the same number", () => {
    expect(questionOptions("  1) keep\n1. shadow\n3. three")).toEqual([
      { id: 1, label: "keep", effect: "continue" },
      { id: 3, label: "three", effect: "continue" },
    ]);
  });

  it("reads which options go through the approval gate", () => {
    const question =
      "1. Continue with guidance (2 more attempts)\n2. Approve as is (the tests pass)\n3. Abort this task";
    expect(questionOptions(question).map((option) => option.effect)).toEqual([
      "continue",
      "approve",
      "abort",
    ]);
  });

  it("finds nothing in a question without options", () => {
    expect(questionOptions("What now?\n2024 was a year.")).toEqual([]);
  });
});

describe("answerOptions", () => {
  const question = "Which format?\n1. String (update test)\n2. Number (update implementation)";

  it("prefers the escalation's structured options and keeps their guidance", () => {
    expect(
      answerOptions(question, [
        {
          id: "1",
          label: "String (update test)",
          action: "continue",
          guidance: "Keep userId a string",
        },
        {
          id: "2",
          label: "Number (update implementation)",
          action: "continue",
          guidance: "Make userId a number (123) in the payload.",
        },
        { id: "3", label: "Approve as is", action: "continue", guidance: "" },
        { id: "4", label: "Abort this task", action: "abort", guidance: "" },
      ]),
    ).toEqual([
      {
        id: 1,
        label: "String (update test)",
        effect: "continue",
        guidance: "Keep userId a string",
      },
      {
        id: 2,
        label: "Number (update implementation)",
        effect: "continue",
        guidance: "Make userId a number (123) in the payload.",
      },
      { id: 3, label: "Approve as is", effect: "approve", guidance: "" },
      { id: 4, label: "Abort this task", effect: "abort", guidance: "" },
    ]);
  });

  it("falls back to the question's numbered lines without structured options", () => {
    expect(answerOptions(question, undefined)).toEqual(questionOptions(question));
    expect(answerOptions(question, [])).toEqual(questionOptions(question));
  });
});
