import { describe, expect, it } from "vitest";
import { conventionalComment } from "./conventional-comment.js";

describe("conventionalComment", () => {
  it.each([
    ["issue: x", "issue", "high"],
    ["todo: x", "todo", "high"],
    ["suggestion: x", "suggestion", "medium"],
    ["question: x", "question", "medium"],
    ["chore: x", "chore", "medium"],
    ["nit: x", "nit", "low"],
    ["nitpick: x", "nitpick", "low"],
    ["thought: x", "thought", "low"],
    ["note: x", "note", "low"],
    ["typo: x", "typo", "low"],
    ["suggestion (blocking): x", "suggestion (blocking)", "high"],
    ["nit(blocking): x", "nit (blocking)", "high"],
    ["issue (non-blocking): x", "issue (non-blocking)", "medium"],
    ["Suggestion (Non-Blocking): x", "suggestion (non-blocking)", "low"],
    ["ISSUE (security, if-minor): x", "issue (security, if-minor)", "high"],
  ])("reads %j", (text, label, priority) => {
    expect(conventionalComment(text)).toEqual({ label, priority, subject: "x" });
  });

  it("marks praise as asking for nothing", () => {
    expect(conventionalComment("praise: tidy")?.priority).toBeNull();
  });

  it.each(["issues: x", "an issue: x", "note that x", "nit x", "todo (x: y"])(
    "does not read %j as a label",
    (text) => {
      expect(conventionalComment(text)).toBeNull();
    },
  );
});

describe("conventionalComment: emoji and cosmetic decorations", () => {
  it("reads a label after an emoji, and a cosmetic kind as low", () => {
    expect(conventionalComment("🚨 issue (security): KIE upload")?.priority).toBe("high");
    expect(conventionalComment("suggestion (typo): set up")?.priority).toBe("low");
    expect(conventionalComment("suggestion (bug_risk): ack")?.priority).toBe("medium");
  });
});
