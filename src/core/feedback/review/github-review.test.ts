import { describe, expect, it } from "vitest";
import approved from "../../../../fixtures/reviews/github/review-approved.json?raw";
import changesRequested from "../../../../fixtures/reviews/github/review-changes-requested.json?raw";
import docsReviews from "../../../../fixtures/reviews/github/docs-list-reviews.json?raw";
import docsChangesRequested from "../../../../fixtures/reviews/github/docs-review-changes-requested.json?raw";
import docsComments from "../../../../fixtures/reviews/github/docs-review-comments.json?raw";
import docsDismissed from "../../../../fixtures/reviews/github/docs-review-dismissed.json?raw";
import ghView from "../../../../fixtures/reviews/github/gh-pr-view.json?raw";
import comments from "../../../../fixtures/reviews/github/review-comments.json?raw";
import { githubReviewPoints, githubReviewStatus } from "./github-review.js";

describe("githubReviewPoints", () => {
  it("reads a review's body as markdown, then its inline comments at path:line; what names no level is as urgent as the state", () => {
    expect(githubReviewPoints(JSON.parse(changesRequested))).toEqual([
      {
        path: null,
        line: null,
        priority: "high",
        message: "blocking: expired refresh tokens are still accepted (see inline comment).",
        label: null,
      },
      {
        path: null,
        line: null,
        priority: "high",
        message: "Please add a regression test for the rotation path.",
        label: null,
      },
      {
        path: "src/auth/refresh.ts",
        line: 57,
        priority: "high",
        message:
          "record.expiresAt is never compared with the clock here, so an expired refresh token still yields a new access token.",
        label: "issue (blocking)",
      },
      {
        path: "src/auth/refresh.ts",
        line: 61,
        priority: "low",
        message: "tok → token",
        label: "nit",
      },
      {
        path: "test/auth/refresh.test.ts",
        line: null,
        priority: "high",
        message:
          "This file needs a case where store.find returns an expired record. The AWS key AKIAIOSFODNN7EXAMPLE in the fixture should go too.",
        label: null,
      },
    ]);
  });

  it("reads an array of review comments as the REST API lists them: a range at its first line, replies as discussion", () => {
    expect(githubReviewPoints(JSON.parse(comments))).toEqual([
      {
        path: "src/http/client.ts",
        line: 86,
        priority: "medium",
        message: "Retrying on 4xx hides client bugs; only retry 5xx and network errors.",
        label: null,
      },
    ]);
  });

  it("reads a comment as one point: label line, title, heading and paragraphs joined; code and details dropped", () => {
    const body = [
      "_🩺 Stability & Availability_ | _🟠 Major_ | _⚡ Quick win_",
      "",
      "<details>",
      "<summary>🧩 Analysis chain</summary>",
      "",
      "```shell",
      "rg -n foo",
      "```",
      "</details>",
      "",
      "**Handle rebuild failures.** Roll back the toggle.",
      "",
      "<!-- fingerprinting:phantom -->",
      "",
      "✅ Addressed in commits 33e223e to 035f026",
    ].join("\n");
    expect(
      githubReviewPoints([
        { path: "a.kt", start_line: 93, line: 189, original_line: 112, body },
        {
          path: "b.ts",
          original_line: 75,
          line: null,
          body: "## CodeQL / Polynomial regex\n\nThis may run slow.",
        },
      ]),
    ).toEqual([
      {
        path: "a.kt",
        line: 93,
        priority: "medium",
        message: "Handle rebuild failures. Roll back the toggle.",
        label: null,
      },
      {
        path: "b.ts",
        line: 75,
        priority: "medium",
        message: "CodeQL / Polynomial regex. This may run slow.",
        label: null,
      },
    ]);
  });

  it("takes what names no level from the body's verdict line when the review has no state", () => {
    const review = (body: string): unknown => ({
      body,
      comments: [{ path: "README.md", line: 38, body: "reword this sentence" }],
    });
    expect(
      githubReviewPoints(review("Looks good Rachael.\n\nLeft one small tweak."))?.at(-1),
    ).toEqual(expect.objectContaining({ path: "README.md", line: 38, priority: "low" }));
    expect(githubReviewPoints(review("Changes requested."))).toEqual([
      expect.objectContaining({ path: "README.md", line: 38, priority: "high" }),
    ]);
    expect(githubReviewPoints(review("Some thoughts below."))?.at(-1)).toEqual(
      expect.objectContaining({ path: "README.md", priority: "medium" }),
    );
  });

  it("keeps a `#` line a lead-in introduces, and one in a fenced block, as the comment's words (cobalt, google-cloud-dart)", () => {
    const message = (body: string): string | undefined =>
      githubReviewPoints([{ path: ".gemini/config.yaml", line: 11, body }])?.[0]?.message;
    expect(message("Comment should be:\n# Post a code review when PR opened")).toBe(
      "Comment should be: # Post a code review when PR opened",
    );
    expect(
      message(
        "It would be nice if it could still look at .sidekick.yaml. This would allow it:\n```\n# Exclude generated code\n - generated/**/lib/**\n```",
      ),
    ).toBe("It would be nice if it could still look at .sidekick.yaml. This would allow it:");
    expect(message("## CodeQL / Incomplete sanitization\nEscape backslashes too.")).toBe(
      "CodeQL / Incomplete sanitization. Escape backslashes too.",
    );
  });

  it("falls back to the diff position when a comment has no line", () => {
    expect(
      githubReviewPoints({ comments: [{ path: "a.ts", position: 4, body: "x" }] })?.[0]?.line,
    ).toBe(4);
  });

  it.each([
    ["an object without review fields", { message: "x" }],
    ["a mixed array", [{ path: "a.ts", body: "x" }, 3]],
    ["a string", "CHANGES_REQUESTED"],
    ["null", null],
  ])("does not claim %s", (_case, document) => {
    expect(githubReviewPoints(document)).toBeNull();
  });

  it("reads GitHub's documented examples: a CHANGES_REQUESTED body alone is high, praise-only comments dropped", () => {
    expect(githubReviewPoints(JSON.parse(docsChangesRequested))).toEqual([
      {
        path: null,
        line: null,
        priority: "high",
        message: "This is close to perfect! Please address the suggested inline change.",
        label: null,
      },
    ]);
    expect(githubReviewPoints(JSON.parse(docsComments))).toEqual([]);
  });

  it("reads gh pr view --json reviews,comments: review bodies, then conversation comments", () => {
    expect(githubReviewPoints(JSON.parse(ghView))).toEqual([
      {
        path: "src/auth/refresh.ts",
        line: 57,
        priority: "high",
        message: "src/auth/refresh.ts:57 must reject expired refresh tokens.",
        label: null,
      },
      {
        path: "src/auth/session.ts",
        line: 12,
        priority: "low",
        message: "rename tkn to token in src/auth/session.ts:12",
        label: "nit",
      },
      {
        path: null,
        line: null,
        priority: "medium",
        message: "Could you also add the rotation change to CHANGELOG.md?",
        label: null,
      },
    ]);
  });

  it("reads an approval's remarks as low and its nits as nits", () => {
    expect(
      githubReviewPoints({
        state: "APPROVED",
        body: "nit: typo in README, recieve\n\n- Rename x.",
      })?.map((point) => [point.priority, point.label]),
    ).toEqual([
      ["low", "nit"],
      ["low", null],
    ]);
  });

  it("survives hostile field types", () => {
    expect(
      githubReviewPoints({
        state: 7,
        body: ["x"],
        comments: [{ path: "a.ts", body: "y", line: -3, original_line: "9" }, null, "z"],
      }),
    ).toEqual([{ path: "a.ts", line: null, priority: "medium", message: "y", label: null }]);
  });
});

describe("githubReviewStatus", () => {
  it.each([
    ["changes requested", JSON.parse(changesRequested), "reject"],
    ["approved", JSON.parse(approved), "approve"],
    ["commented", { state: "COMMENTED", body: "hm" }, undefined],
    ["comments only", JSON.parse(comments), undefined],
    [
      "reviews, latest verdict wins",
      [{ state: "CHANGES_REQUESTED" }, { state: "APPROVED" }, { state: "COMMENTED" }],
      "approve",
    ],
    ["a prototype key", { state: "constructor" }, undefined],
    ["documented list of reviews", JSON.parse(docsReviews), "approve"],
    ["documented review", JSON.parse(docsChangesRequested), "reject"],
    ["documented dismissal", JSON.parse(docsDismissed), undefined],
    ["documented review comments", JSON.parse(docsComments), undefined],
    ["gh pr view's reviewDecision", JSON.parse(ghView), "reject"],
    [
      "gh pr view without a decision",
      { reviews: [{ state: "CHANGES_REQUESTED" }, { state: "APPROVED" }] },
      "approve",
    ],
    ["not GitHub JSON", { runs: [] }, undefined],
  ])("%s", (_case, document, status) => {
    expect(githubReviewStatus(document)).toBe(status);
  });
});
