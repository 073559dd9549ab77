import { describe, expect, it } from "vitest";
import { analyzeAttempt } from "./attempt-analysis.js";

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="test/auth.test.ts" tests="2" failures="1">
<testcase classname="test/auth.test.ts" name="login &gt; puts the numeric id in the token">
<failure message="expected '123' to be 123 // Object.is equality" type="AssertionError">AssertionError: expected '123' to be 123 // Object.is equality
 ❯ test/auth.test.ts:14:31
</failure></testcase>
<testcase classname="test/auth.test.ts" name="login &gt; signs the token"/>
</testsuite></testsuites>`;

describe("analyzeAttempt", () => {
  it("reads the failures from the attempt's reports, as the retry feedback did", () => {
    const attempt = {
      testResult: {
        status: "fail" as const,
        output: "Tests  1 failed | 1 passed",
        reports: [REPORT],
      },
      reviewResult: { status: "approve" as const, feedback: "" },
    };
    expect(analyzeAttempt(attempt).failures).toEqual([
      expect.objectContaining({
        test: "login > puts the numeric id in the token",
        file: "test/auth.test.ts",
        line: 14,
      }),
    ]);
    const consoleOnly = { status: attempt.testResult.status, output: attempt.testResult.output };
    expect(analyzeAttempt({ ...attempt, testResult: consoleOnly }).failures).not.toContainEqual(
      expect.objectContaining({ test: "login > puts the numeric id in the token" }),
    );
  });
});
