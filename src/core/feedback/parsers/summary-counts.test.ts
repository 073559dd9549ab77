import { describe, expect, it } from "vitest";
import { countAfter, countBefore } from "./summary-counts.js";

describe("countAfter", () => {
  it("reads the number after the first label followed by one", () => {
    expect(countAfter("Tests: 9, Assertions: 9, Errors: 1, Failures: 2.", ", Failures: ")).toBe(2);
    expect(countAfter(", failures=3, errors=1", ", errors=")).toBe(1);
    expect(countAfter("Errors: x, Errors: 4", "Errors: ")).toBe(4);
    expect(countAfter("Tests: 9, Assertions: 9.", ", Failures: ")).toBe(0);
  });

  it("finds the one label with a number after 100,000 without", () => {
    expect(countAfter(`${", Failures: x".repeat(100_000)}, Failures: 7`, ", Failures: ")).toBe(7);
  });
});

describe("countBefore", () => {
  it("reads the number before a word that ends there", () => {
    expect(countBefore("=== 2 failed, 3 passed, 1 error in 0.2s ===", "failed")).toBe(2);
    expect(countBefore("=== 2 failed, 3 passed, 1 error in 0.2s ===", "error")).toBe(1);
    expect(countBefore("=== 4 errors in 0.2s ===", "error")).toBe(0);
    expect(countBefore("=== 4 errors in 0.2s ===", "errors")).toBe(4);
    expect(countBefore("x2 failed", "failed")).toBe(0);
    expect(countBefore("12 failedx 3 failed", "failed")).toBe(3);
  });
});
