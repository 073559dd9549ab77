import { describe, expect, it } from "vitest";
import { reviewTokens } from "./review-markdown.js";

const lines = (text: string): string[] =>
  reviewTokens(text).flatMap((token) =>
    token.kind === "line"
      ? [token.text]
      : token.kind === "heading"
        ? [`#${token.level} ${token.text}`]
        : token.kind === "open"
          ? [`<${token.text}>`]
          : token.kind === "close"
            ? ["</>"]
            : [],
  );

describe("reviewTokens", () => {
  it("drops fenced code of every kind, an unclosed fence to the end", () => {
    expect(lines("a\n```diff\n- x\n```\nb\n~~~\ny\n~~~\n````suggestion\nz\n")).toEqual(["a", "b"]);
  });

  it("reads the finding records in a code block as list items, nothing else in it", () => {
    const text = [
      "```",
      "FINDINGS:",
      "major|The floor is overridden.|scripts/agent.sh:675",
      "a|b|c",
      "low | src/a.ts:3 | typo",
      "END FINDINGS",
      "```",
    ].join("\n");
    expect(lines(text)).toEqual([
      "- major: The floor is overridden. (scripts/agent.sh:675)",
      "- low: typo (src/a.ts:3)",
    ]);
  });

  it("reads links as their text and images as nothing, a level badge as its level", () => {
    expect(
      lines(
        [
          "![medium](https://x/medium.svg) see [the docs](https://x/d 'Docs') now",
          "[![Gate](https://x/g.png 'Gate')](https://x/gate) **failed**",
          "a ](b) [c](d e) [f](",
        ].join("\n"),
      ),
    ).toEqual(["[medium] see the docs now", "failed", "a ](b) [c](d e) [f]("]);
  });

  it("keeps findings groups and drops every other collapsible, nested ones too", () => {
    const text = [
      "<details><summary>🧹 Nitpick comments (1)</summary><blockquote>",
      "<details>",
      "<summary>src/a.ts (1)</summary><blockquote>",
      "finding",
      "<details><summary>🤖 Prompt for AI Agents</summary>",
      "<details><summary>inner</summary>x</details>",
      "prompt",
      "</details>",
      "</blockquote></details>",
      "</blockquote></details>",
      "after",
    ].join("\n");
    expect(lines(text)).toEqual([
      "<🧹 Nitpick comments (1)>",
      "<src/a.ts (1)>",
      "finding",
      "</>",
      "</>",
      "after",
    ]);
  });

  it("drops HTML comments, marked bot regions, NOTE and TIP alerts, tables, sub footers, done checkboxes", () => {
    const text = [
      "<!-- a\nmultiline -->kept",
      "<!-- walkthrough_start -->",
      "walkthrough",
      "<!-- walkthrough_end -->",
      "> [!NOTE]",
      "> paused",
      "",
      "> [!WARNING]",
      "> check the link",
      "| a | b |",
      "<sub>Comment @bot help</sub>",
      "- [x] done",
      "- [ ] still to do",
      "<!-- internal state start -->",
      "base64",
    ].join("\n");
    expect(lines(text)).toEqual(["kept", "check the link", "- still to do"]);
  });

  it("reads links as their text, level badges as `[level]`, other images as nothing, shortcodes as emoji", () => {
    expect(
      lines(
        "![medium](https://x/medium-priority.svg) see [the docs](https://x) ![logo](l.png) :warning: ok\n[![Badge](b.svg 'Badge')](https://y)",
      ),
    ).toEqual(["[medium] see the docs ⚠️ ok"]);
  });

  it("marks bold titles and list items", () => {
    const [title, item, plain] = reviewTokens("**Title.**\n1. **High** — x\ntext");
    expect(title).toMatchObject({ kind: "line", title: true, item: null });
    expect(item).toMatchObject({ kind: "line", title: false, item: "High — x" });
    expect(plain).toMatchObject({ kind: "line", title: false, item: null });
  });

  it("reads headings as bold titles when asked (a comment that is one finding), but not in code or under a colon", () => {
    const body = [
      "## CodeQL / Incomplete sanitization",
      "",
      "```sh",
      "# a shell comment",
      "```",
      "Comment should be:",
      "# the new comment",
    ].join("\n");
    expect(reviewTokens(body, { headingsAsTitles: true })).toEqual([
      {
        kind: "line",
        text: "CodeQL / Incomplete sanitization",
        indent: 0,
        title: true,
        item: null,
      },
      { kind: "blank" },
      { kind: "blank" },
      {
        kind: "line",
        text: "Comment should be: # the new comment",
        indent: 0,
        title: false,
        item: null,
      },
    ]);
    expect(reviewTokens(body)[0]).toEqual({
      kind: "heading",
      level: 2,
      text: "CodeQL / Incomplete sanitization",
    });
  });

  it("drops a code excerpt's caption with the excerpt, and keeps a request that ends in a colon", () => {
    expect(
      lines("Use a loop.\n\nSuggested implementation:\n\n```py\nfor x in y: pass\n```"),
    ).toEqual(["Use a loop."]);
    expect(lines("Simpler with filter().\nCode context:\n@@ -1,2 +1,3 @@\n+a")).toEqual([
      "Simpler with filter().",
    ]);
    expect(lines("Share one in-flight promise:\n```ts\nlet p;\n```")).toEqual([
      "Share one in-flight promise:",
    ]);
  });

  it("reads a short bold line a list follows as that list's heading, else as a title", () => {
    expect(lines("**Nits**\n\n- rename x")).toEqual(["#6 Nits", "- rename x"]);
    expect(lines("**Issues found:**\n- a leak")).toEqual(["#6 Issues found", "- a leak"]);
    expect(reviewTokens("**Token logged**\n\nThe token is logged.")[0]).toMatchObject({
      kind: "line",
      title: true,
    });
    expect(reviewTokens("**A title of five words here**\n- x")[0]).toMatchObject({ title: true });
  });

  it("reads an HTML table row as one line and its header row as a heading", () => {
    expect(
      lines("<table><tr><th>2 Warnings</th></tr><tr><td>⚠️</td><td>no tests</td></tr></table>"),
    ).toEqual(["#4 2 Warnings", "- ⚠️ no tests"]);
  });
});

describe("reviewTokens: exports and bots' structures", () => {
  it("drops code elements and diff hunks, ends a hunk at a rule of dashes", () => {
    const text = [
      "<code_context>",
      "+ const a = 1;",
      "</code_context>",
      "kept",
      "@@ -1,2 +1,3 @@",
      " context",
      "+added",
      "-----",
      "after",
    ].join("\n");
    expect(lines(text)).toEqual(["kept", "after"]);
  });

  it("reads a fenced comment body as words, code fences as code", () => {
    const text = ["```", "**Cast vertices to float**", "body", "```", "```", "x = 1", "```"];
    expect(lines(text.join("\n"))).toEqual(["Cast vertices to float", "body"]);
  });

  it("reads banners as headings, place attributes as a place", () => {
    expect(
      lines('##### bot :: src/a.py:5 #####\n<location path="b/c.py" line_range="31-40" />'),
    ).toEqual(["#6 bot :: src/a.py:5", "b/c.py:31"]);
  });

  it("reads front matter and record lines as records, not lines", () => {
    const tokens = reviewTokens(
      "---\nfile: src/a.go\nline: 7\n---\nState: null | Created: 2025-12-22\nFix: use const",
    );
    expect(tokens.filter((token) => token.kind === "record")).toEqual([
      {
        kind: "record",
        document: true,
        fields: [
          ["file", "src/a.go"],
          ["line", "7"],
        ],
      },
      {
        kind: "record",
        document: false,
        fields: [
          ["state", "null"],
          ["created", "2025-12-22"],
        ],
      },
    ]);
    expect(lines("Fix: use const")).toEqual(["Fix: use const"]);
  });

  it("keeps a <details> whose summary names review comments or feedback", () => {
    const text =
      "<details>\n<summary>Click here to see my feedback.</summary>\n\nfinding\n</details>";
    expect(lines(text)).toContain("finding");
  });
});
