import { describe, expect, it } from "vitest";
import type { TestOutputParser } from "../feedback.js";
import { failureOf } from "../failure-of.js";
import { builtinParsers } from "../parsers/builtin-parsers.js";
import { readWithReports } from "./with-reports.js";

const junit = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="pytest" tests="3" failures="1" errors="0">
<testcase classname="tests.test_calc" name="test_add" file="tests/test_calc.py" line="8">
<failure message="assert 5 == 4">def test_add():
&gt;       assert add(2, 2) == 4
E       assert 5 == 4</failure></testcase>
<testcase classname="tests.test_calc" name="test_sub" file="tests/test_calc.py" line="12"/>
</testsuite></testsuites>`;

const console = `============================= test session starts ==============================
collected 3 items / 1 error

==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_broken.py _____________________
tests/test_broken.py:3: in <module>
    import missing
E   ModuleNotFoundError: No module named 'missing'
=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(2, 2) == 4
E       assert 5 == 4
E        +  where 5 = add(2, 2)

tests/test_calc.py:10: AssertionError
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_add - assert 5 == 4
ERROR tests/test_broken.py
========================= 1 failed, 1 passed, 1 error in 0.05s =========================
`;

describe("readWithReports", () => {
  it("takes the report's failures, the log's failing line, and what only the log says", () => {
    const read = readWithReports(console, [junit], builtinParsers, true);
    expect(read.runner).toBe("pytest");
    const [add, broken] = read.failures;
    expect(add).toMatchObject({
      file: "tests/test_calc.py",
      line: 10,
      expected: "4",
      received: "5",
    });
    expect(add?.test).toContain("test_add");
    expect(broken).toMatchObject({ test: "tests/test_broken.py", file: "tests/test_broken.py" });
    expect(broken?.message).toContain("ModuleNotFoundError");
    expect(read.failures).toHaveLength(2);
  });

  it("passes over a report in a format no parser reads", () => {
    const unknown =
      '{\n  "config": {\n    "maxFailures": 0\n  },\n  "status": "failed",\n  "error": {}\n}\n';
    const read = readWithReports(console, [unknown], builtinParsers, true);
    expect(read).toEqual(readWithReports(console, [], builtinParsers, true));
    expect(read.failures.some((failure) => failure.message.includes("maxFailures"))).toBe(false);
  });

  it("reads the log alone when the reports name no failing test", () => {
    const passing = `<testsuite name="s" tests="1" failures="0"><testcase name="t"/></testsuite>`;
    const read = readWithReports(console, [passing], builtinParsers, true);
    expect(read.runner).toBe("pytest");
    expect(read.failures.map((failure) => failure.test)).toContain("tests/test_calc.py::test_add");
    const clean = readWithReports("", [passing], builtinParsers, false);
    expect(clean.passed).toBe(true);
  });

  it("keeps the report's test frame beside the log's place only where it says more", () => {
    const report = `<testsuite name="shop.CartTest"><testcase name="checksOut" classname="shop.CartTest">
<error message="cart is empty" type="java.lang.IllegalStateException">java.lang.IllegalStateException: cart is empty
	at shop.Cart.checkout(Cart.java:34)
	at shop.CartTest.checksOut(CartTest.java:26)</error></testcase></testsuite>`;
    const logged = (frames: string) =>
      [
        "[INFO] Running shop.CartTest",
        "[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! -- in shop.CartTest",
        "[ERROR] shop.CartTest.checksOut -- Time elapsed: 0.01 s <<< ERROR!",
        "java.lang.IllegalStateException: cart is empty",
        frames,
        "",
        "[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0",
      ].join("\n");
    // Surefire's trimmed console stack shows the test's frame only: that is the place, once.
    const trimmed = readWithReports(
      logged("\tat shop.CartTest.checksOut(CartTest.java:26)"),
      [report],
      builtinParsers,
      true,
    );
    expect(trimmed.failures).toHaveLength(1);
    expect(trimmed.failures[0]).toMatchObject({
      file: "src/test/java/shop/CartTest.java",
      line: 26,
    });
    expect(trimmed.failures[0]?.testLocation).toBeUndefined();
    const full = readWithReports(
      logged(
        "\tat shop.Cart.checkout(Cart.java:34)\n\tat shop.CartTest.checksOut(CartTest.java:26)",
      ),
      [report],
      builtinParsers,
      true,
    );
    expect(full.failures[0]).toMatchObject({
      file: "src/main/java/shop/Cart.java",
      line: 34,
      testLocation: { file: "src/test/java/shop/CartTest.java", line: 26 },
    });
  });

  it("takes the log's values over a JUnit report's printed ones, never over a JSON report's", () => {
    const named = { test: "cart > sums", file: "a.js", line: 3, message: "boom" };
    const reportParser: TestOutputParser = {
      name: "report",
      detect: (output) => output.startsWith("<testsuite") || output.startsWith("{"),
      parse: () => [
        failureOf({ ...named, expected: "{'p...': 1, ...}", received: "{'p...': 2, ...}" }),
      ],
    };
    const logParser: TestOutputParser = {
      name: "log",
      detect: (output) => output.startsWith("LOG"),
      parse: () => [failureOf({ ...named, expected: "{'port': 1}", received: "{'port': 2}" })],
    };
    const parsers = [reportParser, logParser];
    const junitRead = readWithReports("LOG", ["<testsuite><testcase/></testsuite>"], parsers, true);
    expect(junitRead.failures[0]).toMatchObject({
      expected: "{'port': 1}",
      received: "{'port': 2}",
    });
    const jsonRead = readWithReports("LOG", ["{}"], parsers, true);
    expect(jsonRead.failures[0]).toMatchObject({ expected: "{'p...': 1, ...}" });
  });

  it("keeps the log's order and every failed check of a test the report lists once", () => {
    const check = (test: string, line: number, expected: string): ReturnType<typeof failureOf> =>
      failureOf({ test, file: "a.test.js", line, expected, received: "0", message: "toBe" });
    const reportParser: TestOutputParser = {
      name: "report",
      detect: (output) => output.startsWith("{"),
      // Listed by file, one entry per test: `b` before `a`, `a` once.
      parse: () => [
        failureOf({ test: "s › b", file: "a.test.js", line: 20, message: "toBe" }),
        failureOf({ test: "s › only in report", file: "a.test.js", message: "boom" }),
        failureOf({ test: "s › a", file: "a.test.js", line: 3, message: "toBe" }),
      ],
    };
    const logParser: TestOutputParser = {
      name: "log",
      detect: (output) => output.startsWith("LOG"),
      parse: () => [check("s › a", 4, "1"), check("s › a", 5, "2"), check("s › b", 21, "3")],
    };
    const read = readWithReports("LOG", ["{}"], [reportParser, logParser], true);
    expect(read.failures.map((failure) => [failure.test, failure.line, failure.expected])).toEqual([
      ["s › a", 4, "1"],
      ["s › a", 5, "2"],
      ["s › b", 21, "3"],
      ["s › only in report", null, null],
    ]);
  });
});
