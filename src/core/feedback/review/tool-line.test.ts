import { describe, expect, it } from "vitest";
import { toolLine } from "./tool-line.js";

describe("toolLine", () => {
  it.each([
    [
      "libexec/pyenv-latest:46:33: warning: Prefer mapfile or read -a. [SC2207]",
      { message: "libexec/pyenv-latest:46:33 Prefer mapfile or read -a.", rule: "SC2207" },
    ],
    [
      'src/a.py:92: error: Argument 1 has incompatible type "Optional[int]"  [arg-type]',
      { message: 'src/a.py:92 Argument 1 has incompatible type "Optional[int]"', rule: "arg-type" },
    ],
    ["a.c:1:2: style: x", { message: "a.c:1:2 x", rule: null }],
  ])("reads %j", (line, finding) => {
    expect(toolLine(line)).toEqual(finding);
  });

  it.each([
    "src/a.ts:12 leaks a handle",
    "Warning: the retry loop never backs off",
    "lib/c.js(9,2): error TS2552: Cannot find name 'x'.",
    "src/a.py:92: Error message is unclear",
  ])("reads no tool line in %j", (line) => {
    expect(toolLine(line)).toBeNull();
  });
});
