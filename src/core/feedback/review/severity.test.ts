import { describe, expect, it } from "vitest";
import { levelOf, toolLevelOf } from "./severity.js";

describe("levelOf", () => {
  it.each([
    ["🔴 Critical", "high"],
    ["Blocker", "high"],
    ["![high]", "high"],
    ["Important", "high"],
    ["Quality Gate failed", "high"],
    ["_🩺 Stability & Availability_ | _🟠 Major_ | _⚡ Quick win_", "medium"],
    ["### Major", "medium"],
    ["[medium]", "medium"],
    ["1 Warning", "medium"],
    ["_⚠️ Potential issue_ | _🟡 Minor_", "low"],
    ["_⚠️ Potential issue_", "high"],
    ["_🛠️ Refactor suggestion_", "medium"],
    ["_🧹 Nitpick (assertive)_", "low"],
    ["🔵 Trivial", "low"],
    ["Nits:", "low"],
    ["Recommended follow-ups (non-blocking):", "low"],
    ["following are the PEP8 issues :", "low"],
    ["🔴", "high"],
    ["🟡 Warnings", "medium"],
    ["🟢", "low"],
  ])("reads %j as %s", (text, level) => {
    expect(levelOf(text)).toBe(level);
  });

  it.each([
    "Areas for Enhancement",
    "Potential Issues",
    "Security Assessment",
    "sdk/src/errors/minor.cpp (1)",
    "Highlights",
  ])("names no level in %j", (text) => {
    expect(levelOf(text)).toBeNull();
  });
});

describe("toolLevelOf", () => {
  it.each([
    ["src/a.py:92: error: Argument 6 [arg-type]", "high"],
    ["src/a.py:3: note: see here", "low"],
    ["lib/a.js(99,23): error TS2552: Cannot find name 'x'.", "high"],
    ["src/a.ts:154:17 - error TS2552: x", "high"],
    ["a.js:13:26: 'x' is unused. [Error/no-unused-vars]", "high"],
    ["a.js:1:1: Unexpected console. [Warning/no-console]", "medium"],
    ["serve.py:149:39: E0606: Possibly using variable (x)", "high"],
    ["serve.py:1:1: W0611: Unused import os (unused-import)", "medium"],
    ["serve.py:1:1: C0114: Missing module docstring", "low"],
  ])("reads %j as %s", (line, level) => {
    expect(toolLevelOf(line)).toBe(level);
  });

  it.each(["./toolz/a.py:30:1: F401 'x' imported but unused", "no place: error: x"])(
    "names no level in %j",
    (line) => {
      expect(toolLevelOf(line)).toBeNull();
    },
  );
});
