import { describe, expect, it } from "vitest";
import conventional from "../../../../fixtures/reviews/conventional/every-label.md?raw";
import markdown from "../../../../fixtures/reviews/plain/markdown.md?raw";
import { plainReviewPoints } from "./plain-review.js";

/** `[priority, path, line, message]` of each point, for short assertions. */
const brief = (text: string, fallback?: "high" | "medium" | "low") =>
  plainReviewPoints(text, fallback).map((point) => [
    point.priority,
    point.path,
    point.line,
    point.message,
  ]);

describe("plainReviewPoints", () => {
  it("reads a markdown review: sections, bullets, numbered items, path:line; the intro and the verdict are no points", () => {
    expect(plainReviewPoints(markdown)).toEqual([
      {
        path: "src/auth/refresh.ts",
        line: 57,
        priority: "high",
        message:
          "refreshToken() never checks the token's expiry, see src/auth/refresh.ts:57. An expired refresh token is accepted and a new access token issued.",
        label: null,
      },
      {
        path: "db/migrations/0042_users.sql",
        line: 12,
        priority: "high",
        message:
          "The migration drops users.legacy_id without a backfill (db/migrations/0042_users.sql:12)",
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
        message: "rename tok to token in src/auth/refresh.ts:61",
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
      'verifyToken accepts tokens signed with alg: none (src/auth/verify.ts:23). Reject none explicitly and pin the algorithm list to ["RS256"].',
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

  it("strips bold markers and code spans", () => {
    expect(plainReviewPoints("- **blocking**: leak in `open()`")).toEqual([
      {
        path: null,
        line: null,
        priority: "high",
        message: "blocking: leak in open()",
        label: null,
      },
    ]);
  });

  it("drops a label with nothing after it", () => {
    expect(plainReviewPoints("nit:\n\n- real point")).toHaveLength(1);
  });

  it("does not take `step:2` or `http://x:80` ports for a location", () => {
    expect(plainReviewPoints("- see step:2 of the runbook")[0]?.path).toBeNull();
  });

  it("reads a lead-in followed by a blank line as the heading of what follows", () => {
    expect(plainReviewPoints("Blocking issues:\n\n- fix a.ts:3")).toEqual([
      { path: "a.ts", line: 3, priority: "high", message: "fix a.ts:3", label: null },
    ]);
    expect(brief("In short:\n\nRename it.")).toEqual([["medium", null, null, "Rename it."]]);
  });

  it("keeps a list item that ends with a colon as a point when its sibling follows", () => {
    expect(
      brief(
        "1. Testing: add the preview command:\n   ```\n   npm run preview\n   ```\n2. Rename x.",
      ),
    ).toEqual([
      ["medium", null, null, "Testing: add the preview command:"],
      ["medium", null, null, "Rename x."],
    ]);
  });

  it("reads severity headings with or without emoji, on three levels", () => {
    const review = [
      "## Review",
      "Thanks for this, the structure is much clearer now.",
      "### 🔴 Critical",
      "- `src/a.ts:3` leaks the token",
      "### Major",
      "- src/b.ts:9 retries ignore Retry-After",
      "### 🟡 Minor",
      "- src/c.ts:1 the name is misleading",
      "### Nits",
      "- src/d.ts:2 trailing space",
      "### Important",
      "- src/e.ts:4 the cache never expires",
    ].join("\n");
    expect(plainReviewPoints(review).map((point) => [point.priority, point.path])).toEqual([
      ["high", "src/a.ts"],
      ["medium", "src/b.ts"],
      ["low", "src/c.ts"],
      ["low", "src/d.ts"],
      ["high", "src/e.ts"],
    ]);
  });

  it("reads a numbered bold finding title with the paragraphs and code under it as one point", () => {
    const review = [
      "### 🔴 Critical",
      "",
      "**1. `src/auth/refresh.ts:61` — refresh token written to the log**",
      "",
      "`logger.debug(token)` prints the token on every refresh.",
      "",
      "```ts",
      "logger.debug(token);",
      "```",
      "",
      "Drop the token from the log call.",
      "",
      "**2. `src/auth/refresh.ts:88` — concurrent refreshes race**",
    ].join("\n");
    expect(brief(review)).toEqual([
      [
        "high",
        "src/auth/refresh.ts",
        61,
        "1. src/auth/refresh.ts:61 — refresh token written to the log. logger.debug(token) prints the token on every refresh. Drop the token from the log call.",
      ],
      ["high", "src/auth/refresh.ts", 88, "2. src/auth/refresh.ts:88 — concurrent refreshes race"],
    ]);
  });

  it("reads a severity word opening an item and a path followed by `line N`", () => {
    expect(
      brief(
        "1. **High** — `app/csv.py` line 57: values are not quoted.\n2. **Low** — app/v.py:31: use UTC.",
      ),
    ).toEqual([
      ["high", "app/csv.py", 57, "app/csv.py line 57: values are not quoted."],
      ["low", "app/v.py", 31, "app/v.py:31: use UTC."],
    ]);
  });

  it("drops praise, summaries, checklists, scores and 'nothing found'; keeps only what asks in an assessment", () => {
    const review = [
      "### PR Review Complete ✅",
      "- [x] Read the diff",
      "**Overall Assessment**: A well-structured change.",
      "#### ✅ Code Quality",
      "- Proper file location: in the right place",
      "#### 🚫 Potential Issues",
      "- **No critical issues found**: the template is safe",
      "- **Minor inconsistency**: line 11 says npm while line 12 says pnpm",
      "#### 🔒 Security Assessment",
      "- No security concerns: only markdown",
      "- Safe structure: standard format",
      "- Consider pinning the action to a commit",
      "### 📊 Evaluation Metrics",
      "- ARCH_ALIGNMENT: 85, 15 deducted for the split-brain",
      "## Summary of Changes",
      "* Adds a CSV export endpoint",
    ].join("\n");
    expect(brief(review)).toEqual([
      ["low", null, null, "Minor inconsistency: line 11 says npm while line 12 says pnpm"],
      ["medium", null, null, "Consider pinning the action to a commit"],
    ]);
  });

  it("reads verdict lines as no points, and an unlocated outro that asks for nothing or concludes", () => {
    expect(
      brief(
        "Review of the export.\n\n1. src/a.py:3 quote the values\n\nOverall this is close. I'd approve once the bug in (1) is fixed.\n\n**Verdict: Request changes** — fix (1).",
      ),
    ).toEqual([["medium", "src/a.py", 3, "src/a.py:3 quote the values"]]);
  });

  it("keeps prose when it is all the review says", () => {
    expect(brief("The endpoint returns 500 on an empty body.")).toEqual([
      ["medium", null, null, "The endpoint returns 500 on an empty body."],
    ]);
  });

  it("reads CodeRabbit's review body: nitpick groups, per-file groups, label lines with a range; drops prompts, fixes and info", () => {
    const review = [
      "**Actionable comments posted: 3**",
      "",
      "<details>",
      "<summary>🧹 Nitpick comments (1)</summary><blockquote>",
      "",
      "<details>",
      "<summary>src/store.cpp (1)</summary><blockquote>",
      "",
      "`670-691`: _🚀 Performance & Scalability_ | _🔵 Trivial_ | _⚡ Quick win_",
      "",
      "**Redundant `all_texts()` enumeration.**",
      "",
      "It is called at Line 673 and again at Line 683. Enumerate once.",
      "",
      "<details>",
      "<summary>♻️ Reuse a single enumeration</summary>",
      "",
      "```diff",
      "- a",
      "```",
      "</details>",
      "",
      "<!-- cr-comment:v1:0c873ce47d87f18f5a49dda6 -->",
      "",
      "</blockquote></details>",
      "",
      "</blockquote></details>",
      "",
      "<details>",
      "<summary>🤖 Prompt for all review comments with AI agents</summary>",
      "",
      "```",
      "In `@src/x.ts`: - Around line 3: fix everything",
      "```",
      "",
      "</details>",
      "<!-- tips_start -->",
      "Thanks for using CodeRabbit! Consider giving us a shout-out.",
      "<!-- tips_end -->",
    ].join("\n");
    expect(brief(review)).toEqual([
      [
        "low",
        "src/store.cpp",
        670,
        "Redundant all_texts() enumeration. It is called at Line 673 and again at Line 683. Enumerate once.",
      ],
    ]);
  });

  it("reads Gemini's badge, CodeRabbit's older labels and emoji shortcodes as levels", () => {
    expect(
      brief(
        "![high](https://www.gstatic.com/codereviewagent/high-priority.svg)\n\nThe lock is never released.",
      ),
    ).toEqual([["high", null, null, "The lock is never released."]]);
    expect(brief("_⚠️ Potential issue_\n\n**Null check missing.**")).toEqual([
      ["high", null, null, "Null check missing."],
    ]);
    expect(brief("_:broom: Nitpick (assertive)_\n\nSplit this paragraph.")).toEqual([
      ["low", null, null, "Split this paragraph."],
    ]);
  });

  it("reads a bullet lead-in with a file as the file of the lines under it (pep8speaks)", () => {
    const review = [
      "Hello @ana! Thanks for submitting the PR.",
      "",
      " - There are no PEP8 issues in the file [`a/handlers.py`](https://x/a/handlers.py) !",
      "",
      " - In the file [`a/helpers.py`](https://x/a/helpers.py), following are the PEP8 issues :",
      "> [Line 51:9](https://x/a/helpers.py#L51): [E123](https://d/?q=E123) closing bracket does not match",
      "> [Line 53:8](https://x/a/helpers.py#L53): [E221](https://d/?q=E221) multiple spaces before operator",
    ].join("\n");
    expect(brief(review)).toEqual([
      ["low", "a/helpers.py", 51, "Line 51:9: E123 closing bracket does not match"],
      ["low", "a/helpers.py", 53, "Line 53:8: E221 multiple spaces before operator"],
    ]);
  });

  it("reads tool lines as points of their own, with the tool's level", () => {
    expect(
      brief(
        "src/a.py:92: error: Argument 1 has incompatible type \"Optional[int]\"  [arg-type]\nsrc/b.py:3: note: see here\nlib/c.js(9,2): error TS2552: Cannot find name 'x'.\nd.js:1:1: 'y' is unused. [Warning/no-unused-vars]",
      ),
    ).toEqual([
      ["high", "src/a.py", 92, 'src/a.py:92 Argument 1 has incompatible type "Optional[int]"'],
      ["low", "src/b.py", 3, "src/b.py:3 see here"],
      ["high", "lib/c.js", 9, "lib/c.js(9,2): error TS2552: Cannot find name 'x'."],
      ["medium", "d.js", 1, "d.js:1:1: 'y' is unused. [Warning/no-unused-vars]"],
    ]);
  });

  it("labels a compiler-style line's finding with the rule it ends with", () => {
    expect(
      plainReviewPoints(
        "libexec/a:68:18: error: Use braces when expanding arrays. [SC1087]\nsrc/b.py:3: note: see here",
      ).map((point) => [point.priority, point.label, point.message]),
    ).toEqual([
      ["high", "SC1087", "libexec/a:68:18 Use braces when expanding arrays."],
      ["low", null, "src/b.py:3 see here"],
    ]);
  });

  it('reads Greptile\'s `<img alt="P1">` badge as the level of the title after it', () => {
    const body =
      '<a href="#"><img alt="P1" src="https://x/badges/p1.svg" align="top"></a> **Overly-strict check may block all PRs**\n\nThe gate requires success.';
    expect(brief(body)).toEqual([
      ["high", null, null, "Overly-strict check may block all PRs. The gate requires success."],
    ]);
  });

  it("drops HTML comments, NOTE alerts, sub footers and tables; reads an HTML table row as a point", () => {
    expect(
      brief(
        "<!-- x -->\n> [!NOTE]\n> ## Reviews paused\n> Use @bot resume.\n\n| a | b |\n|---|---|\n| c | d |\n\n<table><thead><tr><th>1 Warning</th></tr></thead><tbody><tr><td>:warning:</td><td>Tests were not updated</td></tr></tbody></table>\n<p>Generated by Danger</p>\n<sub>Comment @bot help</sub>",
      ),
    ).toEqual([["medium", null, null, "⚠️ Tests were not updated"]]);
  });

  it("reads a TIP alert that is the whole review and states a verdict, a notice alert never", () => {
    const review =
      "> [!TIP]\n> ### ✅ Bot review — safe to merge\n>\n> **✅ Approved** — safe to merge\n>\n> **Nits**\n> - rename x\n> - drop the log line";
    expect(brief(review)).toEqual([
      ["low", null, null, "rename x"],
      ["low", null, null, "drop the log line"],
    ]);
    expect(brief("> [!NOTE]\n> ## Reviews paused\n> - `@bot resume` to resume reviews.")).toEqual(
      [],
    );
    expect(brief(`Please fix the loop.\n\n${review}`)).toEqual([
      ["medium", null, null, "Please fix the loop."],
    ]);
  });

  it("does not read a compiler's tilde underline as a code fence", () => {
    expect(
      brief(
        "src/a.ts:1:2 - error TS1: x\n\n      foo(txt)\n          ~~~\n\nsrc/b.ts:3:4 - error TS2: y",
      ).map((point) => point[1]),
    ).toContain("src/b.ts");
  });

  it("weighs unlabelled points by the fallback a verdict gives", () => {
    expect(brief("Please restore the backoff.", "high")).toEqual([
      ["high", null, null, "Please restore the backoff."],
    ]);
  });
});

describe("plainReviewPoints: places given by the lines above a finding", () => {
  it("a line that is only a place places the finding after it (Sourcery's <location>)", () => {
    const text = [
      "### Comment 1",
      "<location> `src/ui/view.cpp:2199-2200` </location>",
      "<code_context>",
      "+ x",
      "</code_context>",
      "**issue (bug_risk):** Potential unsigned underflow",
    ].join("\n");
    expect(brief(text)).toEqual([
      ["high", "src/ui/view.cpp", 2199, "Potential unsigned underflow"],
    ]);
  });

  it("a place line nothing follows is a point itself", () => {
    expect(brief("src/a.ts:3")).toEqual([["medium", "src/a.ts", 3, "src/a.ts:3"]]);
  });

  it("a heading's range and a banner's place go to the findings under them", () => {
    const text = [
      "### src/pages/Rankings.tsx (18-21)",
      "![high](https://x/high-priority.svg)",
      "The state setter gets the whole response.",
      "########## bot :: src/b.py:503 ##########",
      "**<sub><sub>![P2 Badge](https://x/P2.svg)</sub></sub>  Reject truncated calls**",
    ].join("\n");
    expect(brief(text)).toEqual([
      ["high", "src/pages/Rankings.tsx", 18, "The state setter gets the whole response."],
      ["medium", "src/b.py", 503, "Reject truncated calls"],
    ]);
  });

  it("a short line naming a file titles the labelled finding or the record after it", () => {
    const text = [
      "Comment #1 by gemini on apps/bot/resource.ts:N/A",
      "State: null | Created: 2025-12-22",
      "",
      "Calling toLowerCase() on a number throws.",
      "---",
      "Updated src/c.ts for context",
      "",
      "A second finding.",
    ].join("\n");
    expect(brief(text)).toEqual([
      ["medium", "apps/bot/resource.ts", null, "Calling toLowerCase() on a number throws."],
      ["medium", null, null, "Updated src/c.ts for context"],
      ["medium", null, null, "A second finding."],
    ]);
  });

  it("front matter places every finding of the file", () => {
    const text =
      "---\nfile: internal/config.go\nline: 1950\n---\n# Issue 013\n_⚠️ Potential issue_ | _🟠 Major_\n\n**Reject mixed-case enum values.**";
    expect(brief(text)).toEqual([
      ["medium", "internal/config.go", 1950, "Reject mixed-case enum values."],
    ]);
  });

  it("reads a `P0`–`P3` level before a colon as the point's label, over the words' own marks", () => {
    expect(brief("P2: Potential injection: descriptions reach the prompt unescaped.")).toEqual([
      ["medium", null, null, "Potential injection: descriptions reach the prompt unescaped."],
    ]);
    expect(brief("P3 - Rename `x` to `count`.")[0]?.[0]).toBe("low");
  });

  it("reads a GitHub page's text: a file line, `Comment on lines`, a bare level, `P1 Badge`", () => {
    const text = [
      "server/train.py",
      "Comment on lines +470 to +474",
      "medium",
      "",
      "Calling it inside the loop is inefficient.",
      "server/train.py",
      "P1 Badge Exclude default examples",
    ].join("\n");
    expect(brief(text)).toEqual([
      ["medium", "server/train.py", 470, "Calling it inside the loop is inefficient."],
      ["high", "server/train.py", null, "Exclude default examples"],
    ]);
  });

  it("skips the code a page shows under `Comment on lines` and the author's chrome above a comment", () => {
    const text = [
      "server/train.py",
      "Comment on lines +470 to +474",
      "            acc, f1 = evaluate(",
      "                pool=pool,",
      "            )",
      "Contributor",
      "@gemini-code-assist",
      "gemini-code-assist bot",
      "16 minutes ago",
      "medium",
      "",
      "Calling it inside the loop is inefficient.",
    ].join("\n");
    expect(brief(text)).toEqual([
      ["medium", "server/train.py", 470, "Calling it inside the loop is inefficient."],
    ]);
  });

  it("ends a finding's bare title with a full stop where its paragraph starts, so it reads as the first sentence", () => {
    const text = [
      "**P2 Badge Buffer bare JSON tool calls before streaming**",
      "",
      "For bare-JSON emissions the safety parse runs too late.",
      "",
      "**Reject truncated calls.**",
      "",
      "The parser heals them.",
    ].join("\n");
    expect(brief(text).map((point) => point[3])).toEqual([
      "Buffer bare JSON tool calls before streaming. For bare-JSON emissions the safety parse runs too late.",
      "Reject truncated calls. The parser heals them.",
    ]);
  });

  it("drops CodeRabbit's label and a thread's url from a finding's words", () => {
    expect(
      brief(
        "- a.sh:223 summary=_⚠️ Potential issue_ | _🟡 Minor_ **Pin the scope.** url=https://x/1",
      )[0],
    ).toEqual(["low", "a.sh", 223, "a.sh:223 Pin the scope."]);
  });

  it("a labelled finding keeps the list its words introduce; a change's description is no point", () => {
    const text = [
      "This pull request introduces a year filter and fixes the ranking.",
      "",
      "![critical](https://x/critical.svg)",
      "This component has several structural issues:",
      "1. Hooks in callbacks",
      "2. Duplicate declaration",
    ].join("\n");
    expect(brief(text)).toEqual([
      [
        "high",
        null,
        null,
        "This component has several structural issues: Hooks in callbacks Duplicate declaration",
      ],
    ]);
  });

  it("reads CodeRabbit's label inside a line and `blocking` only as a mark", () => {
    expect(
      brief("- a.sh:223 summary=_⚠️ Potential issue_ | _🟡 Minor_ **Pin the scope.**")[0]?.[0],
    ).toBe("low");
    expect(brief("Use a non-blocking QTimer instead of msleep.")[0]?.[0]).toBe("medium");
    expect(brief("Not blocking: rename x.")[0]?.[0]).toBe("low");
  });
});
