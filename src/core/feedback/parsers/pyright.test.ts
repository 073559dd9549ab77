import { describe, expect, it } from "vitest";
import { pyrightParser } from "./pyright.js";
import { failureOf } from "../failure-of.js";
import { cleanOutput } from "../test-feedback.js";

const output = `/ci/app/src/models.py
  /ci/app/src/models.py:12:20 - error: Argument of type "str" cannot be assigned to parameter "id" of type "int" in function "__init__"
    "str" is not assignable to "int" (reportArgumentType)
  /ci/app/src/models.py:20:5 - warning: Import "yaml" could not be resolved from source (reportMissingModuleSource)
/ci/app/tests/test_models.py
  /ci/app/tests/test_models.py:3:1 - error: "User" is not defined (reportUndefinedVariable)
2 errors, 1 warning, 0 informations 
`;

describe("pyrightParser", () => {
  it("reads each diagnostic with its continuation, rule and the sides of an assignment", () => {
    expect(pyrightParser.detect(output)).toBe(true);
    expect(pyrightParser.parse(cleanOutput(output))).toEqual([
      failureOf({
        file: "src/models.py",
        line: 12,
        column: 20,
        rule: "reportArgumentType",
        expected: '"int"',
        received: '"str"',
        message:
          'Argument of type "str" cannot be assigned to parameter "id" of type "int" in function "__init__"; "str" is not assignable to "int"',
      }),
      failureOf({
        file: "tests/test_models.py",
        line: 3,
        column: 1,
        rule: "reportUndefinedVariable",
        message: '"User" is not defined',
      }),
      failureOf({
        file: "src/models.py",
        line: 20,
        column: 5,
        rule: "reportMissingModuleSource",
        message: 'Import "yaml" could not be resolved from source',
      }),
    ]);
    expect(pyrightParser.reportedFailures?.(output)).toBe(3);
  });

  it("is not mypy: `file:line: error: message  [code]` has no column and dash", () => {
    expect(
      pyrightParser.detect('src/a.py:3: error: Name "x" is not defined  [name-defined]\n'),
    ).toBe(false);
  });
});
