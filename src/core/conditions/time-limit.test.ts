import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { VerdictInput } from "./condition.js";
import { Precedence } from "./precedence.js";
import { timeLimit } from "./time-limit.js";

const timed = (
  elapsedMs: number | undefined,
  timeLimitMs: number | null | undefined,
): VerdictInput => ({
  counters: elapsedMs === undefined ? { iteration: 1 } : { iteration: 1, elapsedMs },
  policy: timeLimitMs === undefined ? { maxIterations: 10 } : { maxIterations: 10, timeLimitMs },
});

describe("TIME_LIMIT", () => {
  it("has its code and SPEC slot", () => {
    expect(timeLimit.code).toBe("TIME_LIMIT");
    expect(timeLimit.precedence).toBe(Precedence.TIME_LIMIT);
  });

  it("fires at the limit", () => {
    expect(timeLimit.check(timed(60_000, 60_000))).toEqual({
      fired: true,
      reason: "elapsed_ms 60000 reached time_limit_ms 60000",
    });
  });

  it("does not fire one millisecond below the limit", () => {
    expect(timeLimit.check(timed(59_999, 60_000))).toEqual({
      fired: false,
      reason: "elapsed_ms 59999 below time_limit_ms 60000",
    });
  });

  it("fires above the limit", () => {
    expect(timeLimit.check(timed(120_000, 60_000))).toEqual({
      fired: true,
      reason: "elapsed_ms 120000 reached time_limit_ms 60000",
    });
  });

  it("never fires when the caller supplies no elapsed_ms, even with a limit of 0", () => {
    expect(timeLimit.check(timed(undefined, 0))).toEqual({
      fired: false,
      reason: "no elapsed_ms supplied (time_limit_ms 0)",
    });
  });

  it.each([null, undefined])("is off with a %s time_limit_ms", (limit) => {
    expect(timeLimit.check(timed(Number.MAX_SAFE_INTEGER, limit))).toEqual({
      fired: false,
      reason: "no time_limit_ms set",
    });
  });

  it("without elapsed_ms never fires, whatever the limit (property)", () => {
    fc.assert(
      fc.property(fc.nat(), (limit) => {
        expect(timeLimit.check(timed(undefined, limit)).fired).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it("fires iff elapsed_ms >= time_limit_ms (property)", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (elapsed, limit) => {
        expect(timeLimit.check(timed(elapsed, limit)).fired).toBe(elapsed >= limit);
      }),
      { numRuns: 2_000 },
    );
  });
});
