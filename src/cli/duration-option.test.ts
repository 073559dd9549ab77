import { describe, expect, it } from "vitest";
import { durationOption } from "./duration-option.js";

const LIMITS = { minMs: 200, maxMs: 86_400_000 };

describe("durationOption", () => {
  it("reads milliseconds, seconds (the default unit) and minutes", () => {
    expect(
      ["500ms", "30s", "30", "1.5s", "2m"].map((value) =>
        durationOption("worker", "lease", value, LIMITS),
      ),
    ).toEqual([500, 30_000, 30_000, 1_500, 120_000]);
  });

  it("refuses anything else, or a duration out of bounds, naming the flag and the value", () => {
    for (const value of ["", "soon", "-1s", "1h", "10ms", "2000m", "1e3"]) {
      expect(() => durationOption("worker", "lease", value, LIMITS)).toThrow(
        `worker: --lease expects a duration from 200 ms to 86400 s such as 30s, 500ms or 2m, got ${JSON.stringify(value)}`,
      );
    }
  });
});
