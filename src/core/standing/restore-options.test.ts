import { describe, expect, it } from "vitest";
import type { Attempt } from "../iteration-check.js";
import type { QuestionOption } from "../loop/answer.js";
import { withRestoreOptions } from "./restore-options.js";

const failing = (iteration: number, count: number): Attempt => ({
  iteration,
  testResult: {
    status: "fail",
    output: [
      "TAP version 13",
      ...Array.from({ length: count }, (_, i) => `not ok ${i + 1} - t${i}`),
      `1..${count}`,
    ].join("\n"),
  },
  reviewResult: { status: "approve", feedback: "" },
});

const options: QuestionOption[] = [
  { id: 1, label: "Continue with guidance (grant more attempts)", effect: "continue" },
  { id: 2, label: "Abort this task", effect: "abort" },
];

describe("restore options", () => {
  it("offers to restore the best attempt, continuing or stopping, numbered after the others", () => {
    const offered = withRestoreOptions(
      options,
      [failing(1, 2), failing(2, 1), failing(3, 3)],
      true,
    );
    expect(offered.slice(0, 2)).toEqual(options);
    expect(
      offered.slice(2).map(({ id, label, effect, restore }) => ({ id, label, effect, restore })),
    ).toEqual([
      { id: 3, label: "Restore attempt 2 and continue", effect: "continue", restore: 2 },
      { id: 4, label: "Restore attempt 2 and stop", effect: "abort", restore: 2 },
    ]);
    expect(offered[2]?.guidance).toBe(
      "The best attempt is attempt 2: 1 failing test, review approved (the latest is attempt 3: 3 failing tests, review approved): its code is restored; go on from it and keep what made it better.",
    );
  });

  it("leaves the review out of the words when the task has no review step", () => {
    const offered = withRestoreOptions(options, [failing(1, 1), failing(2, 3)], true, false);
    expect(offered[2]?.guidance).toContain(
      "The best attempt is attempt 1: 1 failing test (the latest is attempt 2: 3 failing tests)",
    );
  });

  it("offers nothing when the latest attempt is the best, or the attempts are no commits", () => {
    expect(withRestoreOptions(options, [failing(1, 2), failing(2, 1)], true)).toBe(options);
    expect(withRestoreOptions(options, [failing(1, 1), failing(2, 3)], false)).toBe(options);
    expect(withRestoreOptions(options, [], true)).toBe(options);
  });
});
