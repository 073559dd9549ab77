import { describe, expect, it } from "vitest";
import { attemptRecords } from "../attempt-record.js";
import { findPattern } from "../detect-pattern.js";
import { failing } from "../test-support/seed-attempts.js";
import { RUNNER_OUTPUTS } from "../../../test-support/runner-outputs.js";
import { converging } from "./converging.js";

describe.each(RUNNER_OUTPUTS)("converging on $runner output", ({ falling }) => {
  const attempts = falling.map((output, index) => failing(index + 1, output));

  it("finds the failing count falling every attempt", () => {
    const pattern = findPattern(attemptRecords(attempts));
    expect(pattern?.kind).toBe("converging");
    if (pattern?.kind !== "converging") return;
    expect(pattern.iterations).toEqual(attempts.map((attempt) => attempt.iteration));
    expect(pattern.attemptsNeeded).toBeGreaterThanOrEqual(1);
    expect(pattern.description).toMatch(
      /^Converging: failing tests fell \d+( → \d+)+ in iterations/,
    );
  });

  it("is not converging when the count rises again", () => {
    const worse = [...attempts, failing(attempts.length + 1, falling[0] ?? "")];
    expect(converging(attemptRecords(worse))).toBeNull();
  });
});

describe("converging", () => {
  it("estimates the attempts left at the run's pace", () => {
    const [pytest] = RUNNER_OUTPUTS.filter((outputs) => outputs.runner === "pytest");
    const records = attemptRecords(
      (pytest?.falling ?? []).map((output, i) => failing(i + 1, output)),
    );
    const pattern = converging(records);
    expect(pattern?.failingCounts).toEqual([5, 2, 1]);
    expect(pattern?.attemptsNeeded).toBe(1);
  });

  it("needs two attempts", () => {
    const [jest] = RUNNER_OUTPUTS;
    expect(converging(attemptRecords([failing(1, jest?.falling[0] ?? "")]))).toBeNull();
  });
});
