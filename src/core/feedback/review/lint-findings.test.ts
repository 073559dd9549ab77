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
  it("reads a parser's findings as points with their rule, at the level the tool printed (medium when none)", () => {
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
      finding("src/d.rs", 4, "warning[E0599]: no method named `x`", "E0599"),
      finding("src/d.rs", 9, "error: redundant closure", "clippy::redundant_closure"),
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
      { path: "src/c.ts", line: 1, priority: "medium", message: "Printed nowhere", label: "TS1" },
      {
        path: "src/d.rs",
        line: 4,
        priority: "medium",
        message: "no method named `x`",
        label: "E0599",
      },
      {
        path: "src/d.rs",
        line: 9,
        priority: "high",
        message: "redundant closure",
        label: "clippy::redundant_closure",
      },
    ]);
  });

  it("takes a Pylint id the words start with as the rule, its category as the level", () => {
    const parser = parserOf([
      { ...finding("serve.py", 149, "E0606: Possibly using variable 'f' before assignment") },
      { ...finding("serve.py", 150, "C0114: Missing module docstring") },
    ]);
    const output = [
      "serve.py:149:39: E0606: Possibly using variable 'f' before assignment",
      "serve.py:150:0: C0114: Missing module docstring",
    ].join("\n");
    expect(lintFindingPoints(output, [parser])).toEqual([
      {
        path: "serve.py",
        line: 149,
        priority: "high",
        message: "Possibly using variable 'f' before assignment",
        label: "E0606",
      },
      {
        path: "serve.py",
        line: 150,
        priority: "low",
        message: "Missing module docstring",
        label: "C0114",
      },
    ]);
  });

  it("reads a run as findings when one of them lacks its code", () => {
    const coded = finding("a.py", 3, "Incompatible return value type", "return-value");
    const bare: Failure = {
      test: null,
      file: "b.py",
      line: 9,
      expected: null,
      received: null,
      message: "Argument 1 has incompatible type",
    };
    const points = lintFindingPoints("a.py:3: error: x\nb.py:9: error: y", [
      parserOf([coded, bare]),
    ]);
    expect(points?.map((point) => [point.path, point.label])).toEqual([
      ["a.py", "return-value"],
      ["b.py", null],
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
