import { describe, expect, it } from "vitest";
import { isPageChrome } from "./page-chrome.js";

describe("isPageChrome", () => {
  it.each([
    "Contributor",
    "@gemini-code-assist",
    "gemini-code-assist bot",
    "@gemini-code-assist gemini-code-assist bot",
    "16 minutes ago",
    "an hour ago",
    ")",
    "});",
  ])("reads %j as a page's chrome", (text) => {
    expect(isPageChrome(text)).toBe(true);
  });

  it.each([
    "Calling the pool inside the shot loop is inefficient.",
    "bot token leaks",
    "@alice please rename this",
    "Retry after 5 minutes ago is wrong",
  ])("keeps %j", (text) => {
    expect(isPageChrome(text)).toBe(false);
  });
});
