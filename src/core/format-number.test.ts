import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { formatNumber, roundNumber } from "./format-number.js";

describe("formatNumber", () => {
  it("renders exact decimals as written", () => {
    expect(formatNumber(4.2)).toBe("4.2");
    expect(formatNumber(4)).toBe("4");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(120_000)).toBe("120000");
    expect(formatNumber(-1.5)).toBe("-1.5");
  });

  it("hides binary float noise", () => {
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatNumber(0.1 + 0.7)).toBe("0.8");
    expect(formatNumber(5 - 4.2)).toBe("0.8");
  });

  it("renders extremes without throwing", () => {
    expect(formatNumber(1e308)).toBe("1e+308");
    expect(formatNumber(Number.MAX_VALUE)).toBe("1.79769313486e+308");
    expect(formatNumber(Infinity)).toBe("Infinity");
    expect(formatNumber(Number.NaN)).toBe("NaN");
  });
});

describe("roundNumber", () => {
  it("makes differences of exact decimals compare exactly", () => {
    expect(roundNumber(0.82 - 0.8)).toBe(0.02);
    expect(roundNumber(5 - 4.2)).toBe(0.8);
  });

  it("passes non-finite values through", () => {
    expect(roundNumber(Infinity)).toBe(Infinity);
    expect(roundNumber(-Infinity)).toBe(-Infinity);
    expect(roundNumber(Number.NaN)).toBeNaN();
  });

  it("is idempotent, finite for finite input, and within 12 significant digits (property)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const rounded = roundNumber(value);
        expect(Number.isFinite(rounded)).toBe(true);
        expect(roundNumber(rounded)).toBe(rounded);
        expect(Math.abs(rounded - value)).toBeLessThanOrEqual(Math.abs(value) * 1e-11);
      }),
      { numRuns: 2_000 },
    );
  });

  it("leaves two-decimal values unchanged (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => {
        expect(roundNumber(n / 100)).toBe(n / 100);
      }),
      { numRuns: 2_000 },
    );
  });
});
