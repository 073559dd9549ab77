import { describe, expect, it } from "vitest";
import type { Failure, TestOutputParser } from "../feedback.js";
import { lintFindingPoints } from "./lint-findings.js";

const finding = (file: string, line: number, message: string, rule?: string): Failure => ({
  test: null,
  file,
  line,
  expected: null,
  received: null,
  message,
  column: 1,
  ...(rule === undefined ? {} : { rule }),
});

/** A parser that reads every output as the given failures. */
const parserOf = (failures: readonly Failure[], detect = true): TestOutputParser => ({
  name: "fake",
  detect: () => detect,
  parse: () => failures,
});

const STYLISH = [
  "/app/src/a.js",
  "  13:5   error    'x' is assigned a value but never used  no-unused-vars",
  "  20:1   warning  Unexpected console statement            no-console",
  "src/b.ts:14:3 lint/style/useBlockStatements ━━━━━━━━",
  "  ℹ Block statements are preferred in this position.",
].join("\n");

describe("lintFindingPoints", () => {
  it("reads a parser's findings as points with their rule, at the level the tool printed beside them", () => {
    const parser = parserOf([
      finding("src/a.js", 13, "'x' is assigned a value but never used", "no-unused-vars"),
      finding("src/a.js", 20, "Unexpected console statement", "no-console"),
      finding(
        "src/b.ts",
        14,
        "Block statements are preferred in this position.",
        "lint/style/useBlockStatements",
      ),
      finding("src/c.ts", 1, "Printed nowhere", "TS1"),
    ]);
    expect(lintFindingPoints(STYLISH, [parser])).toEqual([
      {
        path: "src/a.js",
        line: 13,
        priority: "high",
        message: "'x' is assigned a value but never used",
        label: "no-unused-vars",
      },
      {
        path: "src/a.js",
        line: 20,
        priority: "medium",
        message: "Unexpected console statement",
        label: "no-console",
      },
      {
        path: "src/b.ts",
        line: 14,
        priority: "low",
        message: "Block statements are preferred in this position.",
        label: "lint/style/useBlockStatements",
      },
      { path: "src/c.ts", line: 1, priority: "high", message: "Printed nowhere", label: "TS1" },
    ]);
  });

  it("leaves to the markdown reader what no parser reads as findings only", () => {
    const test: Failure = { ...finding("a.test.js", 3, "expected 1"), test: "adds" };
    expect(lintFindingPoints("x", [parserOf([test])])).toBeNull();
    expect(lintFindingPoints("x", [parserOf([finding("a.js", 1, "m", "r")], false)])).toBeNull();
    expect(lintFindingPoints("x", [parserOf([])])).toBeNull();
    expect(lintFindingPoints("- a markdown review\n", [])).toBeNull();
  });
});
