import { describe, expect, it } from "vitest";
import eslintReal from "../../../../fixtures/reviews/rdjson/eslint-real.json?raw";
import golangci from "../../../../fixtures/reviews/rdjson/golangci-lint.json?raw";
import eslintLines from "../../../../fixtures/reviews/rdjsonl/eslint.jsonl?raw";
import { rdjsonPoints } from "./rdjson.js";
import { ESLINT_REAL_POINTS } from "./test-support/eslint-real-points.js";

const jsonLines = (text: string): unknown[] =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line): unknown => JSON.parse(line));

describe("rdjsonPoints", () => {
  it("reads real eslint-formatter-rdjson output: the parse error with its null rule, then each problem", () => {
    expect(rdjsonPoints([JSON.parse(eslintReal)])).toEqual(ESLINT_REAL_POINTS);
  });

  it("drops the rule a message echoes at its end", () => {
    expect(
      rdjsonPoints([
        {
          message: "Unexpected unit (length-zero-no-unit)",
          location: { path: "a.css", range: { start: { line: 7 } } },
          severity: "ERROR",
          code: { value: "length-zero-no-unit" },
        },
      ]),
    ).toEqual([
      {
        path: "a.css",
        line: 7,
        priority: "high",
        message: "Unexpected unit",
        label: "length-zero-no-unit",
      },
    ]);
  });

  it("reads an rdjson result; a diagnostic without severity takes the result's", () => {
    expect(rdjsonPoints([JSON.parse(golangci)])).toEqual([
      {
        path: "internal/store/users.go",
        line: 48,
        priority: "high",
        message: "Error return value of `rows.Close` is not checked",
        label: "errcheck",
      },
      {
        path: "internal/store/users.go",
        line: 12,
        priority: "medium",
        message: "exported function `NewUserStore` should have comment or be unexported",
        label: "revive:exported",
      },
      {
        path: "internal/config/defaults.go",
        line: 9,
        priority: "high",
        message: "G101: Potential hardcoded credentials",
        label: "gosec:G101",
      },
      {
        path: "cmd/server/main.go",
        line: 77,
        priority: "low",
        message: "ineffectual assignment to err",
        label: "ineffassign",
      },
    ]);
  });

  it("reads rdjsonl, one diagnostic per line", () => {
    expect(
      rdjsonPoints(jsonLines(eslintLines))?.map(({ path, line, priority, label }) => [
        path,
        line,
        priority,
        label,
      ]),
    ).toEqual([
      ["src/auth/refresh.ts", 61, "high", "@typescript-eslint/no-unused-vars"],
      ["src/http/client.ts", 90, "medium", "no-console"],
      ["src/http/client.ts", 95, "low", "prettier/prettier"],
    ]);
  });

  it("reads numeric severities and skips diagnostics without a message", () => {
    expect(
      rdjsonPoints([
        {
          diagnostics: [
            { message: "a", location: { path: "x.go" }, severity: 1 },
            { message: "", location: { path: "y.go" } },
            { location: { path: "z.go" } },
          ],
        },
      ]),
    ).toEqual([{ path: "x.go", line: null, priority: "high", message: "a", label: null }]);
  });

  it("does not claim lines that are not all diagnostics", () => {
    expect(rdjsonPoints([{ message: "a", location: {} }, { state: "APPROVED" }])).toBeNull();
    expect(rdjsonPoints([])).toBeNull();
  });
});
