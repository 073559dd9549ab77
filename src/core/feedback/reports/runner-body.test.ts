import { describe, expect, it } from "vitest";
import { stripAnsi } from "../clean/ansi.js";
import type { Failure } from "../feedback.js";
import { junit5Parser } from "../parsers/junit5.js";
import { phpunitParser } from "../parsers/phpunit.js";
import phpunitConsole from "../../../../fixtures/real-world/phpunit/doctrine-inflector-offset-classify/output.txt?raw";
import phpunitReport from "../../../../fixtures/real-world/phpunit/doctrine-inflector-offset-classify/report.junit.xml?raw";
import launcherConsole from "./test-fixtures/launcher-cart.txt?raw";
import launcherReport from "./test-fixtures/launcher-cart.xml?raw";
import surefireConsole from "./test-fixtures/surefire-cart.txt?raw";
import surefireReport from "./test-fixtures/surefire-cart.xml?raw";
import { junitFailures } from "./junit.js";
import { runnerBodyFailure } from "./runner-body.js";

/** A failure's facts, the parts the console and the report should agree on. */
const facts = ({ test, file, line, expected, received, message }: Failure) => ({
  test,
  file,
  line,
  expected,
  received,
  message,
});
const byName = (failures: readonly Failure[]) =>
  [...failures].map(facts).sort((a, b) => (a.test ?? "").localeCompare(b.test ?? ""));

describe("a JUnit XML failure body read as its runner's console report", () => {
  it.each([
    ["PHPUnit", phpunitParser, phpunitConsole, phpunitReport, 16],
    ["Maven Surefire 3 (JUnit 5)", junit5Parser, surefireConsole, surefireReport, 7],
    [
      "the JUnit console launcher (--reports-dir)",
      junit5Parser,
      launcherConsole,
      launcherReport,
      7,
    ],
  ])(
    "%s: the report names, places and values every failure as the console does",
    (_, parser, log, xml, count) => {
      const report = junitFailures(xml);
      expect(report).toHaveLength(count);
      expect(byName(report)).toEqual(byName(parser.parse(stripAnsi(log))));
    },
  );

  it("keeps the test's own frame beside a failure thrown in the code under test", () => {
    const php = junitFailures(phpunitReport).find((failure) =>
      failure.test?.endsWith("::testSeemsUtf8"),
    );
    expect(php?.file).toMatch(/\/lib\/Doctrine\/Inflector\/Inflector\.php$/);
    expect(php?.testLocation).toEqual({
      file: expect.stringMatching(/\/tests\/Doctrine\/Tests\/Inflector\/InflectorTest\.php$/),
      line: 54,
    });
    const java = junitFailures(surefireReport).find((failure) =>
      failure.test?.endsWith("checksOutEmptyCart"),
    );
    expect(java).toMatchObject({
      file: "src/main/java/shop/Cart.java",
      line: 34,
      testLocation: { file: "src/test/java/shop/CartTest.java", line: 26 },
    });
  });

  it("names invocations as each runner prints them, their [N] kept", () => {
    expect(junitFailures(surefireReport).map((failure) => failure.test)).toContain(
      "shop.CartTest.doublesTotals(int, int)[2]",
    );
    expect(junitFailures(launcherReport).map((failure) => failure.test)).toContain(
      "JUnit Jupiter:CartTest:doublesTotals(int, int):[2] 2, 4",
    );
  });

  it("reads <system-out> as no part of the failure", () => {
    const xml = `<testsuite name="shop.CartTest"><testcase name="sums()" classname="shop.CartTest">
<failure message="expected: &lt;1&gt; but was: &lt;2&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;1&gt; but was: &lt;2&gt;
	at org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:531)
	at shop.CartTest.sums(CartTest.java:9)</failure>
<system-out>Exception in thread "main" java.lang.Error: noise
	at shop.Noise.run(Noise.java:3)</system-out></testcase></testsuite>`;
    expect(junitFailures(xml)).toEqual([
      {
        test: "shop.CartTest.sums()",
        file: "src/test/java/shop/CartTest.java",
        line: 9,
        expected: "<1>",
        received: "<2>",
        message: "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>",
      },
    ]);
  });

  it("leaves bodies of no runner's shape to the general reading", () => {
    const python = { classname: "tests.test_calc", phpClass: null, name: "test_add", file: null };
    expect(runnerBodyFailure(python, "tests/test_calc.py:10: AssertionError")).toBeNull();
    const php = { classname: "A.BTest", phpClass: "A\\BTest", name: "testX", file: "t/BTest.php" };
    expect(runnerBodyFailure(php, "Some other first line\nt/BTest.php:4")).toBeNull();
    expect(
      runnerBodyFailure(
        php,
        "A\\BTest::testX\nFailed asserting that false is true.\n\nt/BTest.php:4",
      ),
    ).toMatchObject({
      test: "A\\BTest::testX",
      file: "t/BTest.php",
      line: 4,
      message: "Failed asserting that false is true.",
    });
  });
});
