import { describe, expect, it } from "vitest";
import codeql from "../../../../fixtures/reviews/sarif/codeql.sarif?raw";
import eslint from "../../../../fixtures/reviews/sarif/eslint.sarif?raw";
import eslintReal from "../../../../fixtures/reviews/sarif/eslint-real.sarif?raw";
import stylelintReal from "../../../../fixtures/reviews/sarif/stylelint-real.sarif?raw";
import { sarifPoints } from "./sarif.js";
import { ESLINT_REAL_POINTS } from "./test-support/eslint-real-points.js";

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

  it("reads real ESLint 9 SARIF: the parse error first, suppressed results skipped, empty suppressions kept", () => {
    expect(sarifPoints(JSON.parse(eslintReal))).toEqual(ESLINT_REAL_POINTS);
  });

  it("reads real Stylelint SARIF: plain paths, the rule echoed at the message's end dropped", () => {
    const path = "/tmp/loopgate-reviews/app/styles/app.css";
    expect(sarifPoints(JSON.parse(stylelintReal))).toEqual([
      {
        path,
        line: 8,
        priority: "high",
        message: 'Unexpected invalid hex color "#fffffff"',
        label: "color-no-invalid-hex",
      },
      { path, line: 7, priority: "high", message: "Unexpected unit", label: "length-zero-no-unit" },
      {
        path,
        line: 3,
        priority: "high",
        message: 'Unexpected unknown property "colr"',
        label: "property-no-unknown",
      },
    ]);
  });

  it("decodes file URIs, Windows drives included, and keeps malformed escapes", () => {
    const at = (uri: string) => ({
      message: { text: "m" },
      locations: [{ physicalLocation: { artifactLocation: { uri } } }],
    });
    const paths = sarifPoints({
      runs: [
        {
          results: [
            at("file:///home/dev/my%20app/a.js"),
            at("file:///C:/work/b%2Bc.ts"),
            at("src/100%.js"),
          ],
        },
      ],
    })?.map((point) => point.path);
    expect(paths).toEqual(["/home/dev/my app/a.js", "C:/work/b+c.ts", "src/100%.js"]);
  });

  it("keeps results whose suppressions are only under review or rejected", () => {
    const result = (status: string) => ({
      message: { text: status },
      suppressions: [{ kind: "external", status }],
    });
    const messages = sarifPoints({
      runs: [{ results: [result("accepted"), result("underReview"), result("rejected")] }],
    })?.map((point) => point.message);
    expect(messages).toEqual(["underReview", "rejected"]);
  });

  it("reads error notifications of every invocation, not warnings or unlabelled ones", () => {
    const note = (level: string, text: string) => ({ level, message: { text } });
    expect(
      sarifPoints({
        runs: [
          {
            invocations: [
              {
                toolExecutionNotifications: [note("error", "crashed"), note("warning", "slow")],
                toolConfigurationNotifications: [note("error", " "), null],
              },
            ],
            results: [],
          },
        ],
      }),
    ).toEqual([{ path: null, line: null, priority: "high", message: "crashed", label: null }]);
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
