import { describe, expect, it } from "vitest";
import { githubReviewPoints } from "./github-review.js";
import { suggestionWords } from "./suggestion-block.js";

describe("suggestionWords", () => {
  it("says the lines a suggestion proposes as they would be committed, links whole", () => {
    expect(suggestionWords("```suggestion\nSee the [guide](https://x.dev/g).\n```")).toBe(
      "Suggested change: See the [guide](https://x.dev/g).",
    );
    expect(suggestionWords("```suggestion\n```")).toBe("Suggested change: remove these lines");
    expect(suggestionWords("```ts\nconst a = 1;\n```")).toBeNull();
  });

  it("closes a block only on a fence of its own character at least as long", () => {
    expect(suggestionWords("````suggestion\nkeep ```\n```\nlines\n````")).toBe(
      "Suggested change: keep ``` ``` lines",
    );
    expect(suggestionWords("~~~suggestion\r\nNew line.\r\n~~~~")).toBe(
      "Suggested change: New line.",
    );
    expect(suggestionWords("```suggestion\nnever closed")).toBeNull();
  });

  it("gives a suggestion-only inline comment its words, and leaves a worded comment's as they are", () => {
    const only = { path: "a.md", line: 3, body: "```suggestion\nNo setup needed.\n```" };
    expect(githubReviewPoints([only])?.map((point) => point.message)).toEqual([
      "Suggested change: No setup needed.",
    ]);
    const worded = { ...only, body: `Drop the setup step.\n${only.body}` };
    expect(githubReviewPoints([worded])?.map((point) => point.message)).toEqual([
      "Drop the setup step.",
    ]);
  });
});
