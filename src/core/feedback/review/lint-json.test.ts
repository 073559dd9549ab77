import { describe, expect, it } from "vitest";
import { lintJsonPoints } from "./lint-json.js";

describe("lintJsonPoints", () => {
  it("reads ShellCheck's json1 and json: its comments, numeric codes as SC ids, its levels", () => {
    const comments = [
      {
        file: "libexec/a",
        line: 68,
        column: 18,
        level: "error",
        code: 1087,
        message: "Use braces.",
      },
      {
        file: "libexec/a",
        line: 46,
        column: 3,
        level: "warning",
        code: 2207,
        message: "Prefer mapfile.",
      },
      { file: "libexec/b", line: 9, column: 1, level: "style", code: 2006, message: "Use $(...)." },
    ];
    const points = [
      { path: "libexec/a", line: 68, priority: "high", message: "Use braces.", label: "SC1087" },
      {
        path: "libexec/a",
        line: 46,
        priority: "medium",
        message: "Prefer mapfile.",
        label: "SC2207",
      },
      { path: "libexec/b", line: 9, priority: "low", message: "Use $(...).", label: "SC2006" },
    ];
    expect(lintJsonPoints({ comments })).toEqual(points);
    expect(lintJsonPoints(comments)).toEqual(points);
  });

  it("reads ruff's JSON: file, row, code and the level it writes", () => {
    const ruff = [
      {
        code: "F401",
        filename: "/p/cloudpickle/cloudpickle.py",
        location: { column: 34, row: 60 },
        message: "`x` imported but unused",
        severity: "error",
      },
      {
        code: "B905",
        filename: "/p/a.py",
        location: { column: 1, row: 7 },
        message: "zip() without strict=",
      },
    ];
    expect(lintJsonPoints(ruff)).toEqual([
      {
        path: "/p/cloudpickle/cloudpickle.py",
        line: 60,
        priority: "high",
        message: "`x` imported but unused",
        label: "F401",
      },
      {
        path: "/p/a.py",
        line: 7,
        priority: "medium",
        message: "zip() without strict=",
        label: "B905",
      },
    ]);
  });

  it("reads ESLint's JSON (files with their messages) and pylint's types", () => {
    const eslint = [
      {
        filePath: "/p/a.js",
        messages: [{ ruleId: "no-unused-vars", severity: 2, message: "'er' is unused", line: 3 }],
      },
      { filePath: "/p/b.js", messages: [] },
    ];
    expect(
      lintJsonPoints(eslint)?.map((point) => [point.path, point.line, point.priority, point.label]),
    ).toEqual([["/p/a.js", 3, "high", "no-unused-vars"]]);
    const pylint = [
      {
        type: "convention",
        path: "a.py",
        line: 1,
        symbol: "missing-docstring",
        message: "Missing docstring",
      },
    ];
    expect(lintJsonPoints(pylint)?.[0]?.priority).toBe("low");
  });

  it("claims no other JSON: review comments, an entry without a place, an empty array", () => {
    expect(lintJsonPoints([{ path: "a.ts", line: 3, body: "nit: x" }])).toBeNull();
    expect(lintJsonPoints([{ message: "no place" }])).toBeNull();
    expect(lintJsonPoints([])).toBeNull();
    expect(lintJsonPoints({ body: "x" })).toBeNull();
  });
});
