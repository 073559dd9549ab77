import { describe, expect, it } from "vitest";
import { eslintParser } from "./eslint.js";
import { failureOf } from "../failure-of.js";
import { cleanOutput } from "../test-feedback.js";

const stylish = `
> app@1.0.0 lint
> eslint .

/ci/app/src/cart.js
   4:20  error    Expected '===' and instead saw '=='  eqeqeq
   7:7   warning  'unused' is never reassigned. Use 'const' instead  prefer-const

/ci/app/test/cart.test.js
  1:11  error  Parsing error: Unexpected token ;

/ci/app/index.js
  2:1  error  'x' is not defined  no-undef

✖ 4 problems (3 errors, 1 warning)
  0 errors and 1 warning potentially fixable with the \`--fix\` option.
`;

describe("eslintParser", () => {
  it("reads stylish findings under their file, errors first, relative to the project", () => {
    expect(eslintParser.detect(stylish)).toBe(true);
    expect(eslintParser.parse(cleanOutput(stylish))).toEqual([
      failureOf({
        file: "src/cart.js",
        line: 4,
        column: 20,
        rule: "eqeqeq",
        message: "Expected '===' and instead saw '=='",
      }),
      failureOf({
        file: "test/cart.test.js",
        line: 1,
        column: 11,
        message: "Parsing error: Unexpected token ;",
      }),
      failureOf({
        file: "index.js",
        line: 2,
        column: 1,
        rule: "no-undef",
        message: "'x' is not defined",
      }),
      failureOf({
        file: "src/cart.js",
        line: 7,
        column: 7,
        rule: "prefer-const",
        message: "'unused' is never reassigned. Use 'const' instead",
      }),
    ]);
    expect(eslintParser.reportedFailures?.(stylish)).toBe(4);
  });

  it("reads --format unix and --format compact, rule or none", () => {
    const unix = [
      "/ci/app/src/a.js:4:20: Expected '===' and instead saw '=='. [Error/eqeqeq]",
      "/ci/app/lib/b.js:1:11: Parsing error: Unexpected token ; [Error]",
      "/ci/app/lib/b.js:3:7: 'x' is assigned a value but never used. [Warning/@typescript-eslint/no-unused-vars]",
      "",
      "3 problems",
    ].join("\n");
    const compact = [
      "/ci/app/src/a.js: line 4, col 20, Error - Expected '===' and instead saw '=='. (eqeqeq)",
      "/ci/app/lib/b.js: line 1, col 11, Warning - Unexpected console statement. (no-console)",
      "",
      "2 problems",
    ].join("\n");
    for (const text of [unix, compact]) expect(eslintParser.detect(text)).toBe(true);
    expect(
      eslintParser.parse(cleanOutput(unix)).map((f) => [f.file, f.line, f.column, f.rule]),
    ).toEqual([
      ["src/a.js", 4, 20, "eqeqeq"],
      ["lib/b.js", 1, 11, undefined],
      ["lib/b.js", 3, 7, "@typescript-eslint/no-unused-vars"],
    ]);
    expect(eslintParser.parse(cleanOutput(compact))).toEqual([
      failureOf({
        file: "src/a.js",
        line: 4,
        column: 20,
        rule: "eqeqeq",
        message: "Expected '===' and instead saw '=='.",
      }),
      failureOf({
        file: "lib/b.js",
        line: 1,
        column: 11,
        rule: "no-console",
        message: "Unexpected console statement.",
      }),
    ]);
    expect(eslintParser.reportedFailures?.(unix)).toBe(3);
  });

  it("leaves other output alone: node:test's ✖ lines, a bare path list", () => {
    expect(eslintParser.detect("✖ failing tests:\n\n✖ adds (1ms)\n")).toBe(false);
    expect(eslintParser.detect("/ci/app/src/a.js\nsrc/b.js: line 4\n")).toBe(false);
    expect(eslintParser.reportedFailures?.("all good\n")).toBeNull();
  });
});
