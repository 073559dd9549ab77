import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { VerdictInput } from "./condition.js";
import { Precedence } from "./precedence.js";
import { stopScoreReached } from "./stop-score-reached.js";

const scored = (
  score: number | null | undefined,
  stopScore: number | null | undefined,
): VerdictInput => ({
  counters: score === undefined ? { iteration: 1 } : { iteration: 1, score },
  policy: stopScore === undefined ? { maxIterations: 10 } : { maxIterations: 10, stopScore },
});

describe("STOP_SCORE_REACHED", () => {
  it("has its code and SPEC slot", () => {
    expect(stopScoreReached.code).toBe("STOP_SCORE_REACHED");
    expect(stopScoreReached.precedence).toBe(Precedence.STOP_SCORE_REACHED);
  });

  it("fires at the threshold", () => {
    expect(stopScoreReached.check(scored(0.9, 0.9))).toEqual({
      fired: true,
      reason: "score 0.9 reached stop_score 0.9",
    });
  });

  it("does not fire just below the threshold", () => {
    expect(stopScoreReached.check(scored(0.89, 0.9))).toEqual({
      fired: false,
      reason: "score 0.89 below stop_score 0.9",
    });
  });

  it("fires above the threshold", () => {
    expect(stopScoreReached.check(scored(0.95, 0.9))).toEqual({
      fired: true,
      reason: "score 0.95 reached stop_score 0.9",
    });
  });

  it("works with negative and zero thresholds", () => {
    expect(stopScoreReached.check(scored(0, 0)).fired).toBe(true);
    expect(stopScoreReached.check(scored(-2, -1)).fired).toBe(false);
  });

  it("compares the score as displayed: float noise cannot read 'score 0.9 below stop_score 0.9'", () => {
    const score = 0.3 * 3; // 0.8999999999999999
    expect(score).toBeLessThan(0.9);
    expect(stopScoreReached.check(scored(score, 0.9))).toEqual({
      fired: true,
      reason: "score 0.9 reached stop_score 0.9",
    });
  });

  it.each([null, undefined])("does not fire without a score (%s)", (score) => {
    expect(stopScoreReached.check(scored(score, 0.5))).toEqual({
      fired: false,
      reason: "no score yet (stop_score 0.5)",
    });
  });

  it.each([null, undefined])(
    "does not fire without a stop_score (%s), whatever the score",
    (stopScore) => {
      for (const score of [0, 1, 1e308]) {
        expect(stopScoreReached.check(scored(score, stopScore)).fired).toBe(false);
      }
    },
  );

  it("fires iff score >= stop_score for two-decimal values (property)", () => {
    const hundredths = fc.integer({ min: -1_000, max: 1_000 }).map((n) => n / 100);
    fc.assert(
      fc.property(hundredths, hundredths, (score, stopScore) => {
        expect(stopScoreReached.check(scored(score, stopScore)).fired).toBe(score >= stopScore);
      }),
      { numRuns: 2_000 },
    );
  });
});
