import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { NoProgressPolicy } from "../policy.js";
import type { VerdictInput } from "./condition.js";
import {
  NO_CHANGE,
  noProgress,
  oscillatingSignatures,
  repeatedChange,
  repeatedSignature,
  stalledScores,
} from "./no-progress.js";
import { Precedence } from "./precedence.js";

interface History {
  readonly scores?: readonly number[];
  readonly signatures?: readonly string[];
  readonly changes?: readonly string[];
}

const progress = (
  history: History,
  settings: NoProgressPolicy | null | undefined,
): VerdictInput => ({
  counters: { iteration: 1, ...history },
  policy:
    settings === undefined ? { maxIterations: 100 } : { maxIterations: 100, noProgress: settings },
});

const check = (history: History, settings: NoProgressPolicy | null | undefined) =>
  noProgress.check(progress(history, settings));

describe("NO_PROGRESS", () => {
  it("has its code and the last SPEC slot", () => {
    expect(noProgress.code).toBe("NO_PROGRESS");
    expect(noProgress.precedence).toBe(Precedence.NO_PROGRESS);
  });

  describe("stalled scores", () => {
    it("needs more than `window` scores", () => {
      expect(check({ scores: [0.5, 0.5, 0.5] }, { window: 3 }).fired).toBe(false);
      expect(check({ scores: [0.5, 0.5, 0.5, 0.5] }, { window: 3 })).toEqual({
        fired: true,
        reason:
          "best score 0.5 of the last 3 passes did not beat the earlier best 0.5 by more than min_delta 0",
      });
    });

    it("fires when the gain is exactly min_delta (0.8 → 0.82, min_delta 0.02)", () => {
      expect(0.82 - 0.8).not.toBe(0.02); // the float noise the rounding absorbs
      expect(check({ scores: [0.8, 0.81, 0.82, 0.81] }, { window: 3, minDelta: 0.02 })).toEqual({
        fired: true,
        reason:
          "best score 0.82 of the last 3 passes did not beat the earlier best 0.8 by more than min_delta 0.02",
      });
    });

    it("does not fire when the gain exceeds min_delta (0.8 → 0.83, min_delta 0.02)", () => {
      expect(check({ scores: [0.8, 0.81, 0.83, 0.81] }, { window: 3, minDelta: 0.02 }).fired).toBe(
        false,
      );
    });

    it("fires when the gain is below min_delta (0.8 → 0.81, min_delta 0.02)", () => {
      expect(check({ scores: [0.8, 0.81, 0.81, 0.81] }, { window: 3, minDelta: 0.02 }).fired).toBe(
        true,
      );
    });

    it("fires on a regression: the recent best is below the earlier best", () => {
      expect(check({ scores: [0.9, 0.5, 0.6, 0.7] }, { window: 3 }).fired).toBe(true);
    });

    it("compares the best of the recent window with the best before it, not the last scores", () => {
      // best before = 0.9 (not the most recent earlier score 0.1)
      expect(check({ scores: [0.9, 0.1, 0.5, 0.6, 0.7] }, { window: 3 }).fired).toBe(true);
      // any improvement beats min_delta 0
      expect(check({ scores: [0.9, 0.1, 0.5, 0.91, 0.7] }, { window: 3 }).fired).toBe(false);
    });

    it("honours a window of 2", () => {
      expect(check({ scores: [0.5, 0.5], signatures: [] }, { window: 2 }).fired).toBe(false);
      expect(check({ scores: [0.5, 0.4, 0.5] }, { window: 2 }).fired).toBe(true);
      expect(check({ scores: [0.5, 0.4, 0.6] }, { window: 2 }).fired).toBe(false);
    });

    it("handles very long histories", () => {
      const scores = Array.from({ length: 300_000 }, (_, i) => (i < 150_000 ? 0.9 : 0.5));
      expect(stalledScores(scores, 3, 0)).toContain("earlier best 0.9");
      expect(stalledScores([...scores, 0.95], 3, 0)).toBeNull();
    });

    it("agrees with a reference model on two-decimal scores (property)", () => {
      const hundredths = fc.integer({ min: 0, max: 100 });
      fc.assert(
        fc.property(
          fc.array(hundredths, { maxLength: 12 }),
          fc.integer({ min: 2, max: 6 }),
          fc.integer({ min: 0, max: 10 }),
          (ints, window, minDeltaInt) => {
            // Model in exact integer hundredths.
            let expected = false;
            if (ints.length > window) {
              const before = Math.max(...ints.slice(0, ints.length - window));
              const recent = Math.max(...ints.slice(ints.length - window));
              expected = recent - before <= minDeltaInt;
            }
            const scores = ints.map((n) => n / 100);
            expect(stalledScores(scores, window, minDeltaInt / 100) !== null).toBe(expected);
          },
        ),
        { numRuns: 2_000 },
      );
    });
  });

  describe("repeated signatures", () => {
    it("fires when the last `window` signatures are identical", () => {
      expect(check({ signatures: ["x", "a1f", "a1f", "a1f"] }, { window: 3 })).toEqual({
        fired: true,
        reason: 'the last 3 passes have the same signature "a1f"',
      });
    });

    it("does not fire with fewer than `window` signatures", () => {
      expect(check({ signatures: ["a1f", "a1f"] }, { window: 3 }).fired).toBe(false);
    });

    it("does not fire when one of the last `window` differs", () => {
      expect(check({ signatures: ["a", "a", "b"] }, { window: 3 }).fired).toBe(false);
      expect(check({ signatures: ["a", "a", "b", "a", "a"] }, { window: 3 }).fired).toBe(false);
    });

    it("honours the window size", () => {
      expect(repeatedSignature(["b", "a", "a"], 2)).toBe(
        'the last 2 passes have the same signature "a"',
      );
      expect(repeatedSignature(["b", "a", "a"], 3)).toBeNull();
    });
  });

  describe("oscillation", () => {
    it("fires on A, B, A, B", () => {
      expect(check({ signatures: ["a", "b", "a", "b"] }, { window: 5 })).toEqual({
        fired: true,
        reason: 'the last 4 passes oscillate between signatures "a" and "b"',
      });
    });

    it("looks at the last four signatures only", () => {
      expect(oscillatingSignatures(["c", "c", "a", "b", "a", "b"])).not.toBeNull();
      expect(oscillatingSignatures(["a", "b", "a", "b", "c"])).toBeNull();
    });

    it("does not fire on A, B, A or A, B, A, C or A, B, B, A", () => {
      expect(oscillatingSignatures(["a", "b", "a"])).toBeNull();
      expect(oscillatingSignatures(["a", "b", "a", "c"])).toBeNull();
      expect(oscillatingSignatures(["a", "b", "b", "a"])).toBeNull();
    });

    it("does not treat A, A, A, A as oscillation", () => {
      expect(oscillatingSignatures(["a", "a", "a", "a"])).toBeNull();
      // With a window of 5 the repeat rule needs five, so nothing fires at all.
      expect(check({ signatures: ["a", "a", "a", "a"] }, { window: 5 }).fired).toBe(false);
      // With the default window it fires, as a repeat and not as an oscillation.
      const repeat = check({ signatures: ["a", "a", "a", "a"] }, {});
      expect(repeat.fired).toBe(true);
      expect(repeat.reason).not.toContain("oscillate");
    });
  });

  it("uses window 3 and min_delta 0 by default", () => {
    expect(check({ signatures: ["a", "a"] }, {}).fired).toBe(false);
    expect(check({ signatures: ["a", "a", "a"] }, {}).reason).toBe(
      'the last 3 passes have the same signature "a"',
    );
    expect(check({ scores: [0.6, 0.6, 0.6] }, {}).fired).toBe(false);
    expect(check({ scores: [0.6, 0.6, 0.6, 0.6] }, {}).reason).toBe(
      "best score 0.6 of the last 3 passes did not beat the earlier best 0.6 by more than min_delta 0",
    );
    expect(check({ scores: [0.6, 0.6, 0.6, 0.61] }, {}).fired).toBe(false);
  });

  it("lists every finding it made", () => {
    expect(
      check({ scores: [0.5, 0.5, 0.5, 0.5], signatures: ["a", "b", "a", "b"] }, { window: 3 })
        .reason,
    ).toBe(
      "best score 0.5 of the last 3 passes did not beat the earlier best 0.5 by more than min_delta 0; " +
        'the last 4 passes oscillate between signatures "a" and "b"',
    );
  });

  it("does not fire on an empty history", () => {
    expect(check({}, {})).toEqual({
      fired: false,
      reason: "progress within window 3 (0 scores, 0 signatures)",
    });
  });

  it.each([null, undefined])(
    "is off when no_progress is %s, however stuck the loop is",
    (settings) => {
      expect(
        check(
          { scores: [0.5, 0.5, 0.5, 0.5, 0.5], signatures: ["a", "b", "a", "b", "b", "b"] },
          settings,
        ),
      ).toEqual({ fired: false, reason: "no_progress not set" });
    },
  );
});

describe("NO_PROGRESS on unchanged code", () => {
  it("fires when the last `window` passes changed nothing, an empty diff included", () => {
    expect(check({ changes: ["d1", NO_CHANGE, NO_CHANGE] }, { window: 2 })).toEqual({
      fired: true,
      reason: "the last 2 passes changed nothing (empty diff)",
    });
    expect(check({ changes: ["d1", "d1"], signatures: ["a", "b"] }, { window: 2 })).toEqual({
      fired: true,
      reason: "the last 2 passes have the same diff (the code did not change between them)",
    });
  });

  it("holds while the change moves, with fewer passes than the window, or when off", () => {
    expect(check({ changes: ["d1", "d2"] }, { window: 2 }).fired).toBe(false);
    expect(check({ changes: [NO_CHANGE] }, { window: 2 }).fired).toBe(false);
    expect(check({ changes: ["d1", "d1"] }, null).fired).toBe(false);
  });

  it("fires iff the last `window` changes are all equal (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("d1", "d2", NO_CHANGE), { maxLength: 8 }),
        fc.integer({ min: 2, max: 5 }),
        (changes, window) => {
          const recent = changes.slice(-window);
          const same = changes.length >= window && recent.every((c) => c === recent[0]);
          expect(repeatedChange(changes, window) !== null).toBe(same);
        },
      ),
    );
  });
});
