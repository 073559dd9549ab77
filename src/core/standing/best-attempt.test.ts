import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Attempt } from "../iteration-check.js";
import { describeStanding, standingOf, type AttemptStanding } from "./attempt-standing.js";
import { bestAttempt, compareStandings } from "./best-attempt.js";

/** A TAP run failing `failing` tests (passing when 0). */
function tap(failing: number): string {
  const lines = Array.from(
    { length: failing },
    (_, index) => `not ok ${index + 1} - case ${index + 1}`,
  );
  return ["TAP version 13", ...lines, `1..${Math.max(failing, 1)}`].join("\n");
}

function attempt(iteration: number, failing: number, review: Attempt["reviewResult"]): Attempt {
  return {
    iteration,
    testResult: { status: failing === 0 ? "pass" : "fail", output: tap(failing) },
    reviewResult: review,
  };
}

const approved = { status: "approve", feedback: "" } as const;

describe("attempt standing", () => {
  it("counts the failing tests the parsed report names, and reads the review's points and priority", () => {
    const standing = standingOf(
      attempt(2, 3, {
        status: "reject",
        feedback: "- blocking: the token leaks into logs\n- nit: rename x",
      }),
    );
    expect(standing).toEqual({
      iteration: 2,
      testStatus: "fail",
      failing: 3,
      reviewStatus: "reject",
      urgentPoints: 1,
      reviewPoints: 2,
      score: null,
    });
    expect(describeStanding(standing)).toBe(
      "attempt 2: 3 failing tests, review rejected (2 points, 1 urgent)",
    );
    expect(describeStanding(standingOf(attempt(1, 1, approved)))).toBe(
      "attempt 1: 1 failing test, review approved",
    );
    expect(describeStanding(standingOf({ ...attempt(4, 0, approved), score: 0.9 }))).toBe(
      "attempt 4: tests pass, review approved, score 0.9",
    );
  });

  it("counts a failed test step whose output names no test as one failing test", () => {
    const standing = standingOf({
      iteration: 1,
      testResult: { status: "fail", output: "" },
      reviewResult: approved,
    });
    expect(standing.failing).toBe(1);
  });

  it("ranks tests first, then the review, then the score; a tie goes to the later attempt", () => {
    const worse = standingOf(attempt(3, 3, approved));
    const better = standingOf(attempt(1, 1, approved));
    expect(bestAttempt([better, standingOf(attempt(2, 2, approved)), worse])?.iteration).toBe(1);
    const rejected = standingOf(attempt(1, 0, { status: "reject", feedback: "- fix naming" }));
    const passing = standingOf(attempt(2, 0, approved));
    expect(bestAttempt([passing, rejected])?.iteration).toBe(2);
    expect(
      bestAttempt([standingOf(attempt(1, 1, approved)), standingOf(attempt(2, 1, approved))])
        ?.iteration,
    ).toBe(2);
    const scored = { ...standingOf(attempt(1, 0, approved)), score: 0.8 };
    expect(
      bestAttempt([scored, { ...standingOf(attempt(2, 0, approved)), score: 0.5 }])?.iteration,
    ).toBe(1);
    expect(bestAttempt([])).toBeUndefined();
  });

  const standing = fc.record<AttemptStanding>({
    iteration: fc.integer({ min: 1, max: 50 }),
    testStatus: fc.constantFrom("pass", "fail"),
    failing: fc.integer({ min: 0, max: 5 }),
    reviewStatus: fc.constantFrom("approve", "pending", "reject"),
    urgentPoints: fc.integer({ min: 0, max: 3 }),
    reviewPoints: fc.integer({ min: 0, max: 5 }),
    score: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
  });
  const distinct = fc.uniqueArray(standing, {
    minLength: 1,
    maxLength: 8,
    selector: (s) => s.iteration,
  });

  it("picks an attempt no other beats, whatever the order the attempts come in", () => {
    fc.assert(
      fc.property(distinct, fc.nat(), (standings, seed) => {
        const best = bestAttempt(standings);
        if (best === undefined) return false;
        expect(standings.every((other) => compareStandings(best, other) <= 0)).toBe(true);
        const shift = seed % standings.length;
        const rotated = [...standings.slice(shift), ...standings.slice(0, shift)];
        expect(bestAttempt(rotated)).toBe(best);
        return true;
      }),
    );
  });

  it("orders antisymmetrically: a is better than b exactly when b is worse than a", () => {
    fc.assert(
      fc.property(distinct, (standings) => {
        for (const a of standings) {
          for (const b of standings) {
            expect(Math.sign(compareStandings(a, b)) + Math.sign(compareStandings(b, a))).toBe(0);
          }
        }
      }),
    );
  });
});
