import { describe, expect, it } from "vitest";
import codeql from "../../../../fixtures/reviews/sarif/codeql.sarif?raw";
import eslint from "../../../../fixtures/reviews/sarif/eslint.sarif?raw";
import { sarifPoints } from "./sarif.js";

describe("sarifPoints", () => {
  it("reads ESLint's SARIF: level to priority, file:// dropped, suppressed results skipped", () => {
    expect(sarifPoints(JSON.parse(eslint))).toEqual([
      {
        path: "/home/dev/auth-service/src/auth/refresh.ts",
        line: 33,
        priority: "high",
        message: "'legacyId' is assigned a value but never used.",
        label: "no-unused-vars",
      },
      {
        path: "/home/dev/auth-service/src/auth/verify.ts",
        line: 27,
        priority: "medium",
        message: "Expected '===' and instead saw '=='.",
        label: "eqeqeq",
      },
    ]);
  });

  it("reads CodeQL's SARIF: rule default levels, artifact indices, message strings, pass results skipped", () => {
    expect(sarifPoints(JSON.parse(codeql))).toEqual([
      {
        path: "src/users/db.js",
        line: 21,
        priority: "high",
        message: "This query string depends on a [user-provided value](1).",
        label: "js/sql-injection",
      },
      {
        path: "src/users/routes.js",
        line: 9,
        priority: "low",
        message: "Unused variable legacyFilter.",
        label: "js/unused-local-variable",
      },
      {
        path: "src/users/routes.js",
        line: 30,
        priority: "medium",
        message: "This route handler performs a database access, but is not rate-limited.",
        label: "js/missing-rate-limiting",
      },
    ]);
  });

  it("defaults to warning and survives hostile shapes", () => {
    expect(
      sarifPoints({
        runs: [
          null,
          { results: "x" },
          {
            tool: { driver: { rules: "nope" } },
            artifacts: [null],
            results: [
              {
                message: { text: "bare" },
                ruleIndex: -1,
                locations: [{ physicalLocation: { artifactLocation: { index: 0 } } }],
              },
              { message: { id: "default", arguments: [1] }, ruleId: "r" },
              { message: 3 },
            ],
          },
        ],
      }),
    ).toEqual([
      { path: null, line: null, priority: "medium", message: "bare", label: null },
      { path: null, line: null, priority: "medium", message: "r", label: "r" },
    ]);
  });

  it("does not claim a document without runs", () => {
    expect(sarifPoints({ version: "2.1.0" })).toBeNull();
    expect(sarifPoints([])).toBeNull();
  });
});
