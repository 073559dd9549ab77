import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength } from "./code-points.js";
import { EMPTY_REVIEW_SUMMARY, reviewFeedback } from "./review-feedback.js";
import { reviewPoints } from "./review-points.js";

const total = (feedback: { summary: string; actionableItems: readonly string[] }): number =>
  codePointLength(feedback.summary) +
  feedback.actionableItems.reduce((sum, item) => sum + codePointLength(item), 0);

describe("reviewFeedback", () => {
  it("turns bullets into items and quotes the first in the summary", () => {
    const feedback = reviewFeedback(
      "- jwt.sign omits userId (src/auth/token.ts:42)\n- missing test for the expired-token path\n",
      { maxLength: 500 },
    );
    expect(feedback).toEqual({
      summary: "Review rejected: jwt.sign omits userId (src/auth/token.ts:42)",
      actionableItems: [
        "jwt.sign omits userId (src/auth/token.ts:42)",
        "missing test for the expired-token path",
      ],
      priority: "medium",
    });
  });

  it("reads numbered lists, star bullets and continuation lines", () => {
    const feedback = reviewFeedback(
      "1. The handler swallows errors\n   and returns 200 anyway.\n2) Rename `tok`\n* Add a changelog entry",
      { maxLength: 500 },
    );
    expect(feedback.actionableItems).toEqual([
      "The handler swallows errors and returns 200 anyway.",
      "Rename `tok`",
      "Add a changelog entry",
    ]);
  });

  it("treats a lead-in ending with a colon as a heading, not a point", () => {
    const feedback = reviewFeedback("Please fix the following:\n- a\n- b", { maxLength: 500 });
    expect(feedback.actionableItems).toEqual(["a", "b"]);
    expect(feedback.summary).toBe("Review rejected: a");
  });

  it("drops a bare verdict line", () => {
    expect(
      reviewFeedback("Changes requested.\n\n- add tests", { maxLength: 500 }).actionableItems,
    ).toEqual(["add tests"]);
  });

  it("splits plain lines into points, joining wrapped sentences", () => {
    const feedback = reviewFeedback(
      "Missing null check in src/a.ts:10\nThe retry loop never\nbacks off between attempts.\n\nSecond paragraph here.",
      { maxLength: 500 },
    );
    expect(feedback.actionableItems).toEqual([
      "Missing null check in src/a.ts:10",
      "The retry loop never backs off between attempts.",
      "Second paragraph here.",
    ]);
  });

  it.each([
    ["blocking", "- issue (blocking): tokens are logged in plain text", "high"],
    ["must", "- you must validate the signature", "high"],
    ["critical", "- CRITICAL: race in the cache", "high"],
    ["security", "- security: the secret is committed", "high"],
    ["a blocking heading", "## Blocking\n- the migration drops a column\n## Nits\n- typo", "high"],
    [
      "only nits",
      "- nit: trailing space\n- minor: rename x\n- suggestion (non-blocking): inline this",
      "low",
    ],
    ["nits and a plain point", "- nit: trailing space\n- the endpoint returns 500", "medium"],
    ["non-blocking only", "- suggestion (non-blocking): split the function", "low"],
  ])("rates %s", (_case, text, priority) => {
    expect(reviewFeedback(text, { maxLength: 500 }).priority).toBe(priority);
  });

  it("moves a late path:line reference to the front, where cuts cannot reach it", () => {
    const feedback = reviewFeedback(
      "- The error path of the login handler is never exercised by any test, see src/auth/login.ts:88.",
      { maxLength: 500 },
    );
    expect(feedback.actionableItems[0]).toBe(
      "src/auth/login.ts:88: The error path of the login handler is never exercised by any test, see src/auth/login.ts:88.",
    );
    const tight = reviewFeedback(
      "- first point\n- The error path of the login handler is never exercised by any test, see src/auth/login.ts:88.",
      { maxLength: 70 },
    );
    expect(tight.actionableItems[1]).toContain("src/auth/login.ts:88");
  });

  it("leaves an early reference where it is", () => {
    expect(
      reviewFeedback("- src/a.ts:3 leaks a handle", { maxLength: 500 }).actionableItems,
    ).toEqual(["src/a.ts:3 leaks a handle"]);
  });

  it("handles an empty review", () => {
    for (const text of ["", "   \n\n", "\x1b[0m"]) {
      expect(reviewFeedback(text, { maxLength: 500 })).toEqual({
        summary: EMPTY_REVIEW_SUMMARY,
        actionableItems: [],
        priority: "medium",
      });
    }
  });

  it("fits the empty summary into a tiny cap", () => {
    expect(total(reviewFeedback("", { maxLength: 5 }))).toBeLessThanOrEqual(5);
  });

  it("redacts credentials before anything is read", () => {
    const feedback = reviewFeedback(
      "- the key sk-proj-abcdefghijklmnopqrstuvwxyz is committed in .env:3",
      {
        maxLength: 500,
      },
    );
    expect(JSON.stringify(feedback)).not.toContain("abcdefghijklmnopqrstuvwxyz");
    expect(feedback.actionableItems[0]).toContain("[REDACTED:api_key]");
  });

  it("shortens a long first point in the summary", () => {
    const feedback = reviewFeedback(`- ${"word ".repeat(100)}`, { maxLength: 1000 });
    expect(codePointLength(feedback.summary)).toBeLessThanOrEqual("Review rejected: ".length + 100);
  });

  it("survives a 10 MB line", { timeout: 60_000 }, () => {
    const feedback = reviewFeedback(`- ${"x".repeat(10 * 1024 * 1024)}`, { maxLength: 500 });
    expect(total(feedback)).toBeLessThanOrEqual(500);
  });
});

describe("reviewPoints", () => {
  it("carries a section's severity to its points unless a point marks its own", () => {
    expect(reviewPoints("Nits:\n- rename x\n- must fix the leak")).toEqual([
      { text: "rename x", severity: "nit" },
      { text: "must fix the leak", severity: "blocking" },
    ]);
  });

  it("strips bold markers", () => {
    expect(reviewPoints("- **blocking**: leak")).toEqual([
      { text: "blocking: leak", severity: "blocking" },
    ]);
  });
});

describe("reviewFeedback (properties)", () => {
  it("never exceeds the cap and is deterministic", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
            fc.constantFrom("\n", "- ", "1. ", "## ", "nit ", "must ", "src/a.ts:3 "),
          ),
          maxLength: 300,
        }),
        fc.integer({ min: 1, max: 600 }),
        (text, maxLength) => {
          const feedback = reviewFeedback(text, { maxLength });
          expect(total(feedback)).toBeLessThanOrEqual(maxLength);
          expect(reviewFeedback(text, { maxLength })).toEqual(feedback);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
