import { describe, expect, it } from "vitest";
import { countsIn, numberAfter, numberBefore } from "./reported-count.js";
import { jestParser } from "./jest.js";
import { mochaParser } from "./mocha.js";
import { nodeTestParser } from "./node-test.js";
import { tapParser } from "./tap.js";
import { vitestParser } from "./vitest.js";
import { junitParser } from "../reports/junit.js";

describe("countsIn", () => {
  it("sums every summary line's count, counts matches without a group, null without any", () => {
    const workspace = "Tests:       2 failed, 1 passed\nTests:       3 failed, 3 total\n";
    expect(countsIn(workspace, /^Tests: +(\d+) failed/gm)).toBe(5);
    expect(countsIn("● a\n● b\n", /^● /gm)).toBe(2);
    expect(countsIn("nothing", /^Tests: +(\d+)/gm)).toBeNull();
  });
});

describe("numberAfter, numberBefore", () => {
  it("read the number beside a label or word, skipping those without one", () => {
    expect(numberAfter("Tests: 9, Failures: x, Failures: 3.", ", Failures: ")).toBe(3);
    expect(numberAfter('<testsuite errors="0" failures="12">', ' failures="')).toBe(12);
    expect(numberAfter("no count here", ", Errors: ")).toBeNull();
    expect(numberBefore("= 2 failed, 1 errors, 40 passed in 1s =", "failed")).toBe(2);
    expect(numberBefore("3 errors", "error")).toBeNull();
    expect(numberBefore("x error, 1 error in 2s", "error")).toBe(1);
  });

  it("cost linear time on a long line of labels without numbers", () => {
    const line = ", Failures: ".repeat(50_000);
    expect(numberAfter(line, ", Failures: ")).toBeNull();
    expect(numberBefore(" failed".repeat(50_000), "failed")).toBeNull();
  });
});

describe("the JavaScript runners' own failure counts", () => {
  it("Jest: failed tests plus files that did not run; 0 when its summary says none failed", () => {
    const text = [
      "FAIL test/broken.test.js",
      "  ● Test suite failed to run",
      "",
      "    SyntaxError: Unexpected token (5:18)",
      "",
      "Test Suites: 2 failed, 2 total",
      "Tests:       7 failed, 3 passed, 10 total",
    ].join("\n");
    expect(jestParser.reportedFailures?.(text)).toBe(8);
    expect(
      jestParser.reportedFailures?.(
        "PASS a\n\nTest Suites: 1 passed\nTests:       2 passed, 2 total\n",
      ),
    ).toBe(0);
    const report = JSON.stringify({
      numFailedTestSuites: 2,
      openHandles: [],
      testResults: [
        { status: "failed", message: "SyntaxError: x", assertionResults: [] },
        {
          status: "failed",
          assertionResults: [{ status: "failed" }, { status: "failed" }, { status: "passed" }],
        },
      ],
    });
    expect(jestParser.reportedFailures?.(report)).toBe(3);
  });

  it("Vitest: the Tests line plus the Failed Suites banner", () => {
    const text = [
      " RUN  v4.1.12 /p",
      "⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯",
      " Test Files  2 failed (2)",
      "      Tests  6 failed | 2 passed (8)",
    ].join("\n");
    expect(vitestParser.reportedFailures?.(text)).toBe(7);
    expect(vitestParser.reportedFailures?.(" RUN  v4.1.12 /p\n      Tests  2 passed (2)\n")).toBe(
      0,
    );
  });

  it("Mocha: N failing, the JSON report's stats, one for a file that did not load", () => {
    expect(mochaParser.reportedFailures?.("  3 passing (9ms)\n  7 failing\n")).toBe(7);
    expect(mochaParser.reportedFailures?.("  3 passing (9ms)\n")).toBe(0);
    expect(mochaParser.reportedFailures?.('{\n  "stats": {\n    "failures": 4\n  }\n}\n')).toBe(4);
    expect(mochaParser.reportedFailures?.("Exception during run: SyntaxError: x\n")).toBe(1);
  });

  it("node:test: failed and cancelled (timed out) tests, spec or TAP", () => {
    expect(nodeTestParser.reportedFailures?.("ℹ tests 6\nℹ fail 4\nℹ cancelled 1\n")).toBe(5);
    expect(nodeTestParser.reportedFailures?.("# tests 6\n# fail 2\n# cancelled 0\n")).toBe(2);
  });

  it("TAP: tape's # fail, node-tap's closing object", () => {
    expect(tapParser.reportedFailures?.("1..4\n# tests 4\n# pass  1\n# fail  3\n")).toBe(3);
    expect(tapParser.reportedFailures?.("# { total: 5, pass: 2, fail: 3 }\n")).toBe(3);
  });

  it("JUnit: the root's failures and errors", () => {
    const xml =
      '<testsuites name="vitest tests" tests="6" failures="4" errors="1">\n<testsuite><testcase name="a"/></testsuite></testsuites>';
    expect(junitParser.reportedFailures?.(xml)).toBe(5);
    expect(
      junitParser.reportedFailures?.(
        "<testsuites>\n<testsuite><testcase/></testsuite></testsuites>",
      ),
    ).toBeNull();
  });
});
