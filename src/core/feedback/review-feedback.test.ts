import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength } from "./clean/code-points.js";
import conventional from "../../../fixtures/reviews/conventional/every-label.md?raw";
import changesRequested from "../../../fixtures/reviews/github/review-changes-requested.json?raw";
import markdown from "../../../fixtures/reviews/plain/markdown.md?raw";
import golangci from "../../../fixtures/reviews/rdjson/golangci-lint.json?raw";
import eslintLines from "../../../fixtures/reviews/rdjsonl/eslint.jsonl?raw";
import codeql from "../../../fixtures/reviews/sarif/codeql.sarif?raw";
import eslintSarif from "../../../fixtures/reviews/sarif/eslint.sarif?raw";
import { EMPTY_REVIEW_SUMMARY, reviewFeedback } from "./review-feedback.js";

const total = (feedback: { summary: string; actionableItems: readonly string[] }): number =>
  codePointLength(feedback.summary) +
  feedback.actionableItems.reduce((sum, item) => sum + codePointLength(item), 0);

describe("reviewFeedback", () => {
  it("turns bullets into items, each led by its place; the summary counts them by priority", () => {
    const feedback = reviewFeedback(
      "- jwt.sign omits userId (src/auth/token.ts:42)\n- missing test for the expired-token path\n",
      { maxLength: 500 },
    );
    expect(feedback).toEqual({
      summary: "Review rejected: 2 points (2 medium)",
      actionableItems: [
        "src/auth/token.ts:42 jwt.sign omits userId",
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
      "Rename tok",
      "Add a changelog entry",
    ]);
  });

  it("treats a lead-in ending with a colon as a heading, not a point", () => {
    const feedback = reviewFeedback("Please fix the following:\n- a\n- b", { maxLength: 500 });
    expect(feedback.actionableItems).toEqual(["a", "b"]);
    expect(feedback.summary).toBe("Review rejected: 2 points (2 medium)");
  });

  it("drops a bare verdict line", () => {
    expect(
      reviewFeedback("Changes requested.\n\n- add tests", { maxLength: 500 }).actionableItems,
    ).toEqual(["add tests"]);
  });

  it("splits plain lines into points, joining wrapped sentences", () => {
    const feedback = reviewFeedback(
      "Missing null check in src/a.ts:10\nThe retry loop never\nbacks off between attempts.\n\nPlease log the attempt count too.",
      { maxLength: 500 },
    );
    expect(feedback.actionableItems).toEqual([
      "src/a.ts:10 Missing null check",
      "The retry loop never backs off between attempts.",
      "Please log the attempt count too.",
    ]);
  });

  it("says what the review states: an approval, a rejection, nothing to act on", () => {
    expect(reviewFeedback("LGTM, thanks!", { maxLength: 500 })).toEqual({
      summary: "Review approved: no points to act on",
      actionableItems: [],
      priority: "low",
    });
    expect(reviewFeedback("Approved.\n\n- nit: typo in README", { maxLength: 500 })).toMatchObject({
      summary: "Review approved: 1 point (1 low)",
      priority: "low",
    });
    expect(reviewFeedback("- rename x\n\nVerdict: Request changes", { maxLength: 500 })).toEqual({
      summary: "Review rejected: 1 point (1 high)",
      actionableItems: ["rename x"],
      priority: "high",
    });
    expect(
      reviewFeedback("## Summary of Changes\n\n* Adds an endpoint", { maxLength: 500 }).priority,
    ).toBe("low");
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
      "src/auth/login.ts:88 The error path of the login handler is never exercised by any test",
    );
    const tight = reviewFeedback(
      "- first point\n- The error path of the login handler is never exercised by any test, see src/auth/login.ts:88.",
      { maxLength: 120 },
    );
    expect(tight.actionableItems[1]).toContain("src/auth/login.ts:88");
    expect(tight.actionableItems[1]).not.toBe(feedback.actionableItems[0]);
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

  it("never repeats a point in the summary", () => {
    const feedback = reviewFeedback(`- ${"word ".repeat(100)}`, { maxLength: 1000 });
    expect(feedback.summary).toBe("Review rejected: 1 point (1 medium)");
  });

  it("survives a 10 MB line", { timeout: 60_000 }, () => {
    const feedback = reviewFeedback(`- ${"x".repeat(10 * 1024 * 1024)}`, { maxLength: 500 });
    expect(total(feedback)).toBeLessThanOrEqual(500);
  });
});

describe("reviewFeedback (formats)", () => {
  it("orders Conventional Comments by priority, keeps the reviewer's order within one, drops praise", () => {
    const feedback = reviewFeedback(conventional, { maxLength: 5000 });
    expect(feedback.priority).toBe("high");
    expect(feedback.summary).toBe("Review rejected: 11 points (2 high, 4 medium, 5 low)");
    const labels = feedback.actionableItems.map((item) => /^(?:\S+:\d+ )?([^:]+):/.exec(item)?.[1]);
    expect(labels).toEqual([
      "issue (blocking)",
      "todo",
      "suggestion",
      "question",
      "chore",
      "issue (non-blocking, security)",
      "suggestion (non-blocking)",
      "nit",
      "thought",
      "note",
      "nit (if-minor)",
    ]);
    expect(feedback.actionableItems.join("\n")).not.toMatch(/praise|TokenStore/);
  });

  it("puts path:line first for GitHub inline comments", () => {
    const feedback = reviewFeedback(changesRequested, { maxLength: 5000 });
    expect(feedback.summary).toBe("Review rejected: 5 points (4 high, 1 low)");
    expect(feedback.actionableItems).toContain(
      "src/auth/refresh.ts:57 issue (blocking): record.expiresAt is never compared with the clock here, so an expired refresh token still yields a new access token.",
    );
    // The file was named whole three items up: its base name says which it is.
    expect(feedback.actionableItems.at(-1)).toBe("refresh.ts:61 nit: tok → token");
    expect(feedback.actionableItems.join("\n")).toContain("[REDACTED:aws_access_key]");
  });

  it.each([
    [
      "rdjson",
      golangci,
      "high",
      [
        "internal/store/users.go:48 errcheck: Error return value of `rows.Close` is not checked",
        "internal/config/defaults.go:9 gosec:G101: G101: Potential hardcoded credentials",
        "users.go:12 revive:exported: exported function `NewUserStore` should have comment or be unexported",
        "cmd/server/main.go:77 ineffassign: ineffectual assignment to err",
      ],
    ],
    [
      "rdjsonl",
      eslintLines,
      "high",
      [
        "src/auth/refresh.ts:61 @typescript-eslint/no-unused-vars: 'token' is assigned a value but never used.",
        "src/http/client.ts:90 no-console: Unexpected console statement.",
        "…:95 prettier/prettier: Replace `··return·x` with `··return·x;`",
      ],
    ],
    [
      "SARIF (CodeQL)",
      codeql,
      "high",
      [
        "src/users/db.js:21 js/sql-injection: This query string depends on a [user-provided value](1).",
        "src/users/routes.js:30 js/missing-rate-limiting: This route handler performs a database access, but is not rate-limited.",
        "…:9 js/unused-local-variable: Unused variable legacyFilter.",
      ],
    ],
    [
      "SARIF (ESLint)",
      eslintSarif,
      "high",
      [
        "src/auth/refresh.ts:33 no-unused-vars: 'legacyId' is assigned a value but never used.",
        "src/auth/verify.ts:27 eqeqeq: Expected '===' and instead saw '=='.",
      ],
    ],
  ])("turns %s into path:line items", (_case, text, priority, items) => {
    const feedback = reviewFeedback(text, { maxLength: 5000 });
    expect(feedback.priority).toBe(priority);
    expect(feedback.actionableItems).toEqual(items);
  });

  it("counts the least urgent points instead of cutting every item to a stub", () => {
    const review = Array.from(
      { length: 40 },
      (_, index) => `- nit: rename variable number ${index} in src/a.ts:${index + 1} please`,
    ).join("\n");
    const feedback = reviewFeedback(`- issue: leak in src/b.ts:9\n${review}`, { maxLength: 300 });
    expect(feedback.actionableItems.at(-1)).toMatch(/^\+\d+ more points$/);
    for (const item of feedback.actionableItems.slice(1, -1))
      expect(item).toMatch(/^(?:src\/a\.ts|…):\d+ rename variable number \d+/);
  });

  it("spends a brief item on the finding's words, not on a Conventional Comments label", () => {
    const review = [
      "- issue (security): KIE upload endpoint does not validate file type or size in src/server.py:291",
      "- suggestion (typo): use set up, the verb, in docs/fix.md:69",
      ...Array.from(
        { length: 6 },
        (_, index) => `- suggestion: split the helper number ${index} in src/a.ts:${index + 1}`,
      ),
    ].join("\n");
    const items = reviewFeedback(review, { maxLength: 300 }).actionableItems;
    expect(items[0]).toMatch(/^src\/server\.py:291 KIE upload/);
    expect(items.join("\n")).not.toMatch(/\d (?:issue|suggestion)(?: \([^)]*\))?$/m);
    expect(reviewFeedback(review, { maxLength: 5000 }).actionableItems[0]).toBe(
      "src/server.py:291 issue (security): KIE upload endpoint does not validate file type or size",
    );
  });

  it("names every finding's place and rule before any finding's words, the file once per run", () => {
    const diagnostics = Array.from({ length: 15 }, (_, index) => ({
      message: `Something about finding number ${index} that takes some room to say`,
      location: {
        path: `src/file-${Math.floor(index / 5)}.ts`,
        range: { start: { line: index + 1 } },
      },
      severity: "ERROR",
      code: { value: `rule-${index}` },
    }));
    const feedback = reviewFeedback(JSON.stringify({ diagnostics }), { maxLength: 500 });
    const items = feedback.actionableItems;
    expect(items).toHaveLength(15);
    for (const [index, item] of items.entries()) {
      const place = index % 5 === 0 ? `src/file-${index / 5}.ts:${index + 1}` : `…:${index + 1}`;
      expect(item.startsWith(`${place} rule-${index}`)).toBe(true);
    }
    expect(items[0]).toContain("finding number 0 that takes some room to say");
  });

  it("keeps the word a cut ends on when a blank follows it", () => {
    const words = "Polynomial regular expression used onto data from the request, which runs slow";
    const feedback = reviewFeedback(`- src/a.ts:1 ${words}`, { maxLength: 86 });
    expect(feedback.actionableItems).toEqual([
      "src/a.ts:1 Polynomial regular expression used onto…",
    ]);
  });

  it("shows the briefest points of the least urgent priority shown, never a less urgent one first", () => {
    const diagnostic = (path: string, severity: string, message: string) => ({
      message,
      location: { path, range: { start: { line: 7 } } },
      severity,
    });
    const longPath = `examples/${"nested/".repeat(12)}view-model.kt`;
    const diagnostics = [
      diagnostic("src/low-a.ts", "INFO", "Rename the helper to say what it returns"),
      diagnostic(longPath, "INFO", "Handle the rebuild failure instead of logging it"),
      diagnostic("src/high.ts", "ERROR", "The token is written to the log in plain text"),
      diagnostic("src/low-b.ts", "INFO", "Fix the grammar of the error message here"),
      diagnostic("src/medium.ts", "WARNING", "Retries ignore the Retry-After header sent"),
    ];
    const shown = (maxLength: number) =>
      reviewFeedback(JSON.stringify({ diagnostics }), { maxLength }).actionableItems.map(
        (item) => /^\S+/.exec(item)?.[0],
      );
    // The long path's point gives its room to the two short ones after it, counted as `+1`.
    expect(shown(300)).toEqual([
      "src/high.ts:7",
      "src/medium.ts:7",
      "src/low-a.ts:7",
      "src/low-b.ts:7",
      "+1",
    ]);
    // With room for one low point, the one whose briefest form is shortest (low-b's, cut to 40).
    expect(shown(220)).toEqual(["src/high.ts:7", "src/medium.ts:7", "src/low-b.ts:7", "+2"]);
    expect(shown(180)).toEqual(["src/high.ts:7", "src/medium.ts:7", "+3"]);
  });

  /** The items of rdjson diagnostics `finding at N`, each `[path, line, severity]`. */
  const itemsOf = (findings: readonly (readonly [string, number, string])[]): readonly string[] =>
    reviewFeedback(
      JSON.stringify({
        diagnostics: findings.map(([path, line, severity]) => ({
          message: `finding at ${line}`,
          location: { path, range: { start: { line } } },
          severity,
        })),
      }),
      { maxLength: 500 },
    ).actionableItems;

  it.each([
    [
      "writes a file's points of one priority one after another, the file once",
      "src/a.ts 1 ERROR, src/b.ts 2 ERROR, src/a.ts 3 ERROR, src/c.ts 4 WARNING, src/a.ts 5 WARNING, src/c.ts 6 WARNING",
      ["src/a.ts:1", "…:3", "src/b.ts:2", "src/c.ts:4", "…:6", "a.ts:5"],
    ],
    [
      "starts a priority with the file the priority above ended with, names a file met again by its base name",
      "src/core/parser.py 1 ERROR, src/routes/app.py 2 WARNING, src/core/parser.py 3 WARNING, src/core/parser.py 4 INFO, lib/app.py 5 INFO, src/routes/app.py 6 INFO",
      ["src/core/parser.py:1", "…:3", "src/routes/app.py:2", "…:6", "parser.py:4", "lib/app.py:5"],
    ],
  ])("%s", (_case, findings, places) => {
    const parsed = findings.split(", ").map((finding) => {
      const [path = "", line = "", severity = ""] = finding.split(" ");
      return [path, Number(line), severity] as const;
    });
    expect(itemsOf(parsed)).toEqual(
      places.map((place) => `${place} finding at ${/\d+$/.exec(place)?.[0] ?? ""}`),
    );
  });

  it("says a finding repeated down one file once, with every line, and counts each", () => {
    const finding = (path: string, row: number, code: string, message: string) => ({
      code,
      filename: path,
      location: { row, column: 1 },
      message,
    });
    const zip = "`zip()` without an explicit `strict=` parameter";
    const report = [
      finding("a.py", 714, "B905", zip),
      finding("a.py", 720, "B905", zip),
      finding("b.py", 3, "B905", zip),
      finding("a.py", 759, "B905", zip),
      finding("a.py", 800, "B018", "Found useless expression."),
    ];
    const feedback = reviewFeedback(JSON.stringify(report), { maxLength: 500 });
    expect(feedback.summary).toBe("Review rejected: 5 points (5 medium)");
    expect(feedback.actionableItems).toEqual([
      `a.py:714, :720, :759 B905: ${zip}`,
      "…:800 B018: Found useless expression.",
      `b.py:3 B905: ${zip}`,
    ]);
    const tight = reviewFeedback(JSON.stringify(report), { maxLength: 70 });
    // One item fits: the briefest, `b.py:3`; the other four points are counted, repeats too.
    expect(tight.actionableItems[0]).toMatch(/^b\.py:3 /);
    expect(tight.actionableItems.at(-1)).toBe("+4 more points");
  });

  it("spends the room on every point's first sentence before any point's explanation", () => {
    const explanation = "The explanation goes on about why it matters, with examples. ".repeat(3);
    const sentence = (index: number) =>
      `Finding number ${index} is here and it is serious enough to say.`;
    const review = ["src/a.ts:1", "src/b.ts:2", "src/c.ts:3", "src/d.ts:4"]
      .map((place, index) => `- ${place} ${sentence(index)} ${explanation}`)
      .join("\n");
    const feedback = reviewFeedback(review, { maxLength: 320 });
    expect(total(feedback)).toBeLessThanOrEqual(320);
    expect(feedback.actionableItems).toHaveLength(4);
    for (const [index, item] of feedback.actionableItems.entries())
      expect(item).toContain(sentence(index));
  });

  it("is only as urgent as its most urgent point", () => {
    expect(reviewFeedback("nit: a\n\nquestion: b", { maxLength: 500 })).toEqual({
      summary: "Review rejected: 2 points (1 medium, 1 low)",
      actionableItems: ["question: b", "nit: a"],
      priority: "medium",
    });
  });

  it("names every point's place before any point gets more words, the most urgent first", () => {
    for (const text of [markdown, conventional, changesRequested, codeql]) {
      const feedback = reviewFeedback(text, { maxLength: 500 });
      const whole = reviewFeedback(text, { maxLength: 100_000 }).actionableItems;
      expect(total(feedback)).toBeLessThanOrEqual(500);
      // A brief form leaves out a Conventional Comments label (`nit: `) the whole one has; a
      // point's place may be named briefer when the point above it is left out.
      const words = (item: string) =>
        item
          .replace(/^\S+:\d+ /, "")
          .replace(/^(?:nit|issue|suggestion|question|todo|chore|thought|note)[^:]*: /i, "")
          .replace(/…$/, "");
      const placed = (item: string) => /^\S+:\d+ /.test(item);
      // Each item is a brief form of a whole one, in the whole ones' order (a point left out
      // for `+N more` is skipped there), and names a place where the whole one does.
      let next = 0;
      for (const [index, item] of feedback.actionableItems.entries()) {
        if (/^\+\d+ more points?$/.test(item)) continue;
        const at = whole.findIndex((form, at) => at >= next && words(form).startsWith(words(item)));
        expect(at).toBeGreaterThanOrEqual(next);
        if (index === 0) expect(at).toBe(0);
        expect(placed(item)).toBe(placed(whole[at] ?? ""));
        next = at + 1;
      }
    }
  });
});

/** Review documents of every format, with hostile values mixed into their fields. */
const structuredReview = fc.oneof(
  fc
    .array(
      fc.record({
        message: fc.oneof(fc.string(), fc.constant("issue (blocking): x")),
        location: fc.record({ path: fc.oneof(fc.string(), fc.integer()), range: fc.anything() }),
        severity: fc.constantFrom("ERROR", "WARNING", "INFO", 2, null),
      }),
    )
    .map((diagnostics) => JSON.stringify({ diagnostics })),
  fc
    .record({
      state: fc.constantFrom("APPROVED", "CHANGES_REQUESTED", "COMMENTED", 3),
      body: fc.oneof(fc.string(), fc.constant("praise: ok\n- nit: y")),
      comments: fc.array(
        fc.record({
          path: fc.string(),
          line: fc.oneof(fc.integer(), fc.anything()),
          body: fc.string(),
        }),
      ),
    })
    .map((review) => JSON.stringify(review)),
  fc
    .array(
      fc.record({
        ruleId: fc.string(),
        ruleIndex: fc.integer({ min: -2, max: 3 }),
        level: fc.constantFrom("error", "warning", "note", "none", "bogus"),
        message: fc.oneof(fc.record({ text: fc.string() }), fc.anything()),
        locations: fc.anything(),
      }),
    )
    .map((results) => JSON.stringify({ version: "2.1.0", runs: [{ results }] })),
  fc.anything().map((value) => JSON.stringify(value) ?? ""),
);

describe("reviewFeedback (properties)", () => {
  it("never exceeds the cap and is deterministic for structured reviews", () => {
    fc.assert(
      fc.property(
        structuredReview,
        fc.nat({ max: 40 }),
        fc.integer({ min: 1, max: 600 }),
        (text, cut, maxLength) => {
          // Cutting a document short must fall back to plain text, never throw.
          for (const review of [text, text.slice(0, text.length - cut)]) {
            const feedback = reviewFeedback(review, { maxLength });
            expect(total(feedback)).toBeLessThanOrEqual(maxLength);
            expect(reviewFeedback(review, { maxLength })).toEqual(feedback);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("orders items most urgent first and names each file whole before any brief name of it", () => {
    const rank: Record<string, number> = { ERROR: 0, WARNING: 1, INFO: 2 };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            path: fc.constantFrom("src/a.ts", "lib/a.ts", "src/core/b.py", "b.py", "c.go"),
            line: fc.integer({ min: 1, max: 99 }),
            severity: fc.constantFrom("ERROR", "WARNING", "INFO"),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 60, max: 800 }),
        (findings, maxLength) => {
          const diagnostics = findings.map(({ path, line, severity }, index) => ({
            message: `finding ${index} here`,
            location: { path, range: { start: { line } } },
            severity,
          }));
          const { actionableItems } = reviewFeedback(JSON.stringify({ diagnostics }), {
            maxLength,
          });
          const shown = actionableItems.flatMap((item) => {
            const index = /finding (\d+)/.exec(item)?.[1];
            const finding = index === undefined ? undefined : findings[Number(index)];
            return finding === undefined ? [] : [{ item, finding }];
          });
          const ranks = shown.map(({ finding }) => rank[finding.severity] ?? 3);
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
          const named: string[] = [];
          for (const { item, finding } of shown) {
            const name = /^(\S+?):\d+/.exec(item)?.[1] ?? "";
            if (name === "…") expect(named.at(-1)).toBe(finding.path);
            else if (name !== finding.path) {
              expect(named).toContain(finding.path);
              expect(finding.path.endsWith(`/${name}`)).toBe(true);
            }
            named.push(finding.path);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

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
