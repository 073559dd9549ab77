import { describe, expect, it } from "vitest";
import { attemptsSummary } from "./attempts-summary.js";
import { shortReason } from "./short-reason.js";
import { rejected, SEED_ATTEMPTS } from "./test-support/seed-attempts.js";

describe("shortReason", () => {
  it("derives the seed's reasons from the first failure", () => {
    expect(SEED_ATTEMPTS.map((attempt) => shortReason(attempt))).toEqual([
      "Test failed - undefined token",
      "Test failed - token missing userId",
      "Test failed - userId present but wrong format (string instead of number)",
    ]);
  });

  it("names review outcomes and passing attempts", () => {
    const pass = { status: "pass", output: "" } as const;
    expect(shortReason(rejected(1, "- Add input validation\n- Rename x"))).toBe(
      "Review rejected - Add input validation",
    );
    expect(
      shortReason({ testResult: pass, reviewResult: { status: "reject", feedback: "" } }),
    ).toBe("Review rejected - no reason given");
    expect(
      shortReason({ testResult: pass, reviewResult: { status: "pending", feedback: "" } }),
    ).toBe("Review pending");
    expect(
      shortReason({ testResult: pass, reviewResult: { status: "approve", feedback: "" } }),
    ).toBe("Passed");
  });

  it("stays within 100 code points", () => {
    const output = `Error: ${"very long message ".repeat(40)}`;
    const reason = shortReason({
      testResult: { status: "fail", output },
      reviewResult: { status: "pending", feedback: "" },
    });
    expect([...reason].length).toBeLessThanOrEqual(100);
    expect(reason.startsWith("Test failed - very long message")).toBe(true);
  });
});

describe("attemptsSummary", () => {
  it("writes one newline-terminated line per attempt", () => {
    expect(attemptsSummary(SEED_ATTEMPTS)).toBe(
      "Iteration 1: Test failed - undefined token\n" +
        "Iteration 2: Test failed - token missing userId\n" +
        "Iteration 3: Test failed - userId present but wrong format (string instead of number)\n",
    );
    expect(attemptsSummary([])).toBe("");
  });
});
