import { describe, expect, it } from "vitest";
import conventional from "../../../../fixtures/reviews/conventional/every-label.md?raw";
import approved from "../../../../fixtures/reviews/github/review-approved.json?raw";
import changesRequested from "../../../../fixtures/reviews/github/review-changes-requested.json?raw";
import comments from "../../../../fixtures/reviews/github/review-comments.json?raw";
import markdown from "../../../../fixtures/reviews/plain/markdown.md?raw";
import golangci from "../../../../fixtures/reviews/rdjson/golangci-lint.json?raw";
import eslintLines from "../../../../fixtures/reviews/rdjsonl/eslint.jsonl?raw";
import codeql from "../../../../fixtures/reviews/sarif/codeql.sarif?raw";
import eslintSarif from "../../../../fixtures/reviews/sarif/eslint.sarif?raw";
import { reviewPointsOf } from "./review-points-of.js";
import { reviewStatusOf } from "./review-status-of.js";

describe("reviewPointsOf", () => {
  it.each([
    ["markdown", markdown, 6, "src/auth/refresh.ts"],
    ["conventional comments", conventional, 11, "src/auth/verify.ts"],
    ["a GitHub review", changesRequested, 5, "src/auth/refresh.ts"],
    ["GitHub review comments", comments, 1, "src/http/client.ts"],
    ["rdjson", golangci, 4, "internal/store/users.go"],
    ["rdjsonl", eslintLines, 3, "src/auth/refresh.ts"],
    ["ESLint SARIF (paths under the project root cut)", eslintSarif, 2, "src/auth/refresh.ts"],
    ["CodeQL SARIF", codeql, 3, "src/users/db.js"],
  ])("detects %s", (_case, text, count, firstPath) => {
    const points = reviewPointsOf(text);
    expect(points).toHaveLength(count);
    expect(points.find((point) => point.path !== null)?.path).toBe(firstPath);
  });

  it("reads JSON wrapped in whitespace and CRLF line ends", () => {
    expect(reviewPointsOf(`\r\n  ${eslintLines.replaceAll("\n", "\r\n")}  `)).toHaveLength(3);
  });

  it.each([
    ["truncated JSON", '{"diagnostics": [{"message": "x", "location": {"path": "a.go"'],
    ["a bracketed first word", "[blocking] the handler leaks src/a.ts:3"],
    ["JSON of no known shape", '{"verdict": "no", "why": "leak in src/a.ts:3"}'],
  ])("reads %s as plain text", (_case, text) => {
    const [point] = reviewPointsOf(text);
    expect(point?.message).toBe(text.trim());
  });

  it("redacts credentials, also those JSON escapes hid from the first pass", () => {
    const escaped = JSON.stringify({
      comments: [{ path: "a.ts", line: 1, body: "key \\u0041KIAIOSFODNN7EXAMPLE" }],
    }).replace("\\\\u0041", "\\u0041");
    const points = [...reviewPointsOf(changesRequested), ...reviewPointsOf(escaped)];
    expect(JSON.stringify(points)).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(points.at(-1)?.message).toBe("key [REDACTED:aws_access_key]");
  });

  it("strips ANSI before reading", () => {
    expect(reviewPointsOf("\x1b[31missue:\x1b[0m leak")[0]).toMatchObject({
      label: "issue",
      message: "leak",
    });
  });

  it("survives deep nesting and a 10 MB message", { timeout: 60_000 }, () => {
    expect(() => reviewPointsOf("[".repeat(1_000_000))).not.toThrow();
    const huge = JSON.stringify({
      diagnostics: [{ message: "x".repeat(10 * 1024 * 1024), location: { path: "a.go" } }],
    });
    expect(reviewPointsOf(huge)[0]?.message.length).toBeLessThanOrEqual(1000);
  });
});

describe("reviewStatusOf", () => {
  it.each([
    ["CHANGES_REQUESTED", changesRequested, "reject"],
    ["APPROVED", approved, "approve"],
    ["COMMENTED", '{"state": "COMMENTED", "body": ""}', undefined],
    ["review comments", comments, undefined],
    ["SARIF", codeql, undefined],
    ["rdjsonl", eslintLines, undefined],
    ["a text review's verdict line", "Changes requested.\n- fix it", "reject"],
    ["a closing verdict", "- src/a.ts:3 leak\n\n**Verdict: Request changes** — fix it", "reject"],
    ["a verdict heading", "### Final Recommendation: APPROVE ✅\nGood work.", "approve"],
    ["a bare LGTM", "LGTM, thanks!", "approve"],
    ["a condition, not a verdict", "- fix a.ts:3\n\nI'd approve once (1) is fixed.", undefined],
    ["a verdict inside a finding", "- the status: approve flag is never read", undefined],
    ["a verdict in a code block", "```\nVerdict: approve\n```\n- fix it", undefined],
    ["text without a verdict", "- fix it", undefined],
    [
      "a COMMENTED review whose body states one",
      '{"state": "COMMENTED", "body": "## Verdict: REQUEST CHANGES"}',
      "reject",
    ],
    ["malformed JSON", '{"state": "APPROVED"', undefined],
  ])("%s", (_case, text, status) => {
    expect(reviewStatusOf(text)).toBe(status);
  });

  it("drops repeated points, keeping the first", () => {
    const result = {
      message: { text: "m" },
      locations: [
        { physicalLocation: { artifactLocation: { uri: "a.js" }, region: { startLine: 3 } } },
      ],
    };
    const sarif = JSON.stringify({ runs: [{ results: [result] }, { results: [result] }] });
    expect(reviewPointsOf(sarif)).toEqual([
      { path: "a.js", line: 3, priority: "medium", message: "m", label: null },
    ]);
  });
});
