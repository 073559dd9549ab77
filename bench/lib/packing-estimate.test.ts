import { describe, expect, it } from "vitest";
import { packingEstimate } from "./packing-estimate.mjs";

describe("packingEstimate", () => {
  const facts = [
    { test: "a > one", file: "a.test.js", line: 3, expected: "1", received: "2", keyword: "toBe" },
    { test: "a > two", file: "a.test.js", line: 9, expected: "1", received: "3", keyword: "toBe" },
  ];

  it("shows every part when the cap holds them all", () => {
    expect(packingEstimate(facts, 500)).toEqual({ found: 12, total: 12 });
  });

  it("counts a part several facts share once, for all of them", () => {
    // Room for the headline and 13 characters: the two lines (3 each, one fact each), then the
    // shared keyword (4 + 3, two facts); the shared file (9) no longer fits.
    const headline = "Test failed: 2 failing tests".length;
    expect(packingEstimate(facts, headline + 13)).toEqual({ found: 4, total: 12 });
    expect(packingEstimate(facts, headline + 12)).toEqual({ found: 2, total: 12 });
  });

  it("shows nothing when the headline takes the cap", () => {
    expect(packingEstimate(facts, 10).found).toBe(0);
  });
});
