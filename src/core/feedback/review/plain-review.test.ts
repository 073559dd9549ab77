import { describe, expect, it } from "vitest";
import conventional from "../../../../fixtures/reviews/conventional/every-label.md?raw";
import markdown from "../../../../fixtures/reviews/plain/markdown.md?raw";
import { plainReviewPoints } from "./plain-review.js";

describe("plainReviewPoints", () => {
  it("reads a markdown review: sections, bullets, numbered items, path:line", () => {
    expect(plainReviewPoints(markdown)).toEqual([
      {
        path: null,
        line: null,
        priority: "medium",
        message: "Thanks for the quick turnaround. A few things before this can merge.",
        label: null,
      },
      {
        path: "src/auth/refresh.ts",
        line: 57,
        priority: "high",
        message:
          "`refreshToken()` never checks the token's expiry, see src/auth/refresh.ts:57. An expired refresh token is accepted and a new access token issued.",
        label: null,
      },
      {
        path: "db/migrations/0042_users.sql",
        line: 12,
        priority: "high",
        message:
          "The migration drops `users.legacy_id` without a backfill (db/migrations/0042_users.sql:12)",
        label: null,
      },
      {
        path: "src/http/client.ts",
        line: 88,
        priority: "medium",
        message:
          "The retry loop in src/http/client.ts:88 retries on 4xx responses too; only 5xx and network errors should be retried.",
        label: null,
      },
      {
        path: null,
        line: null,
        priority: "medium",
        message: "Please add a test for the expired-token path.",
        label: null,
      },
      {
        path: "src/auth/refresh.ts",
        line: 61,
        priority: "low",
        message: "rename `tok` to `token` in src/auth/refresh.ts:61",
        label: null,
      },
      {
        path: "README.md",
        line: 14,
        priority: "low",
        message: "trailing whitespace in README.md:14",
        label: null,
      },
    ]);
  });

  it("reads Conventional Comments with every label, drops praise, keeps discussion", () => {
    const points = plainReviewPoints(conventional);
    expect(points.map(({ label, priority, path, line }) => [label, priority, path, line])).toEqual([
      ["issue (blocking)", "high", "src/auth/verify.ts", 23],
      ["suggestion (non-blocking)", "low", "src/auth/verify.ts", 41],
      ["suggestion", "medium", null, null],
      ["nit", "low", "src/auth/sign.ts", 9],
      ["question", "medium", null, null],
      ["todo", "high", "src/auth/sign.ts", 17],
      ["chore", "medium", "package.json", 31],
      ["thought", "low", null, null],
      ["note", "low", null, null],
      ["nit (if-minor)", "low", "src/auth/index.ts", 3],
      ["issue (non-blocking, security)", "medium", "src/auth/verify.ts", 60],
    ]);
    expect(points[0]?.message).toBe(
      '`verifyToken` accepts tokens signed with `alg: none` (src/auth/verify.ts:23). Reject `none` explicitly and pin the algorithm list to `["RS256"]`.',
    );
    expect(JSON.stringify(points)).not.toContain("TokenStore");
  });

  it("lets a point's own label or marker win over its section", () => {
    expect(
      plainReviewPoints("## Nits\n- rename x\n- must fix the leak\n- issue: y").map(
        (point) => point.priority,
      ),
    ).toEqual(["low", "high", "high"]);
  });

  it("strips bold markers", () => {
    expect(plainReviewPoints("- **blocking**: leak")).toEqual([
      { path: null, line: null, priority: "high", message: "blocking: leak", label: null },
    ]);
  });

  it("drops a label with nothing after it", () => {
    expect(plainReviewPoints("nit:\n\n- real point")).toHaveLength(1);
  });

  it("does not take `step:2` or `http://x:80` ports for a location", () => {
    expect(plainReviewPoints("- see step:2 of the runbook")[0]?.path).toBeNull();
  });

  it("reads a lead-in followed by a blank line and a list as the list's heading", () => {
    expect(plainReviewPoints("Blocking issues:\n\n- fix a.ts:3")).toEqual([
      { path: "a.ts", line: 3, priority: "high", message: "fix a.ts:3", label: null },
    ]);
    expect(plainReviewPoints("In short:\n\nRename it.")).toEqual([
      { path: null, line: null, priority: "medium", message: "In short:", label: null },
      { path: null, line: null, priority: "medium", message: "Rename it.", label: null },
    ]);
  });
});
