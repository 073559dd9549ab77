import { describe, expect, it } from "vitest";
import { asksForChange, isBotCount, reportsNothing } from "./review-prose.js";

describe("review prose", () => {
  it.each([
    ["Could benefit from including the preview command", true],
    ["Why is the skew 300 seconds?", true],
    ["This leaks the file handle.", true],
    ["Minimal impact: the template is lightweight markdown", false],
    ["Thanks for tackling this — the wrapper is much easier to follow.", false],
  ])("asks for a change in %j: %s", (text, asks) => {
    expect(asksForChange(text)).toBe(asks);
  });

  it.each([
    ["No critical issues found: the template is safe", true],
    ["No security concerns: only markdown", true],
    ["There are no PEP8 issues in the file a/handlers.py !", true],
    ["No blocking required actions — eligible for merge.", true],
    ["No sensitive data exposure: all content is public", false],
    ["Not checking the result leaks errors", false],
  ])("reports nothing in %j: %s", (text, nothing) => {
    expect(reportsNothing(text)).toBe(nothing);
  });

  it("knows bots' count lines", () => {
    expect(isBotCount("Actionable comments posted: 10")).toBe(true);
    expect(
      isBotCount("Actionable comments posted: 2. Validate the retry limit before scheduling."),
    ).toBe(false);
  });

  it.each([
    [
      "Copilot reviewed 7 out of 7 changed files in this pull request and generated 3 comments.",
      true,
    ],
    ["Copilot wasn't able to review any files in this pull request.", true],
    ["reviewbot could not review the generated files in this change.", true],
    [
      "Copilot reviewed 2 of 3 files. Rename the helper before merging, it shadows a builtin.",
      false,
    ],
    ["The parser wasn't able to review the input, so it throws on empty files.", false],
  ])("reads a bot's review count or nothing-reviewed notice in %j: %s", (text, count) => {
    expect(isBotCount(text)).toBe(count);
  });
});
