import { describe, expect, it } from "vitest";
import { cleanOutput } from "../test-feedback.js";
import { junitFailures, junitParser } from "./junit.js";

const vitestStyle = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="2" failures="1">
    <testsuite name="test/token.test.js" tests="2" failures="1">
        <testcase classname="test/token.test.js" name="login &gt; returns a numeric userId" time="0.01">
            <failure message="expected &apos;123&apos; to be 123 // Object.is equality" type="AssertionError">
AssertionError: expected &apos;123&apos; to be 123 // Object.is equality
 ❯ test/token.test.js:6:43
            </failure>
        </testcase>
        <testcase classname="test/token.test.js" name="login &gt; passes" time="0.001"/>
    </testsuite>
</testsuites>
`;

const nested = `<testsuites>
  <testsuite name="cart">
    <testsuite name="totals">
      <testcase name="sums" classname="test" file="tests/cart.py" line="12">
        <error type="ValueError"><![CDATA[ValueError: bad <value> & more]]></error>
      </testcase>
    </testsuite>
    <testcase name="passes" classname="test"><skipped/></testcase>
  </testsuite>
  <!-- <testcase name="commented out"><failure/></testcase> -->
</testsuites>`;

describe("junitParser", () => {
  it("reads a failing test case: full name, values from the failure text, first user frame", () => {
    expect(junitParser.detect(vitestStyle)).toBe(true);
    expect(junitFailures(vitestStyle)).toEqual([
      {
        test: "login > returns a numeric userId",
        file: "test/token.test.js",
        line: 6,
        expected: "123",
        received: "'123'",
        message: "AssertionError: expected '123' to be 123 // Object.is equality",
      },
    ]);
  });

  it("joins nested suites, prefers declared file and line, unwraps CDATA, skips comments", () => {
    expect(junitFailures(nested)).toEqual([
      {
        test: "cart > totals > sums",
        file: "tests/cart.py",
        line: 12,
        expected: null,
        received: null,
        message: "ValueError: bad <value> & more",
      },
    ]);
  });

  it("falls back to the message attribute, then the type, when the element is empty", () => {
    const xml = `<testsuite name="s"><testcase name="t"><failure message="boom&#10;more" type="E"/></testcase>
<testcase name="u"><failure type="Timeout"/></testcase></testsuite>`;
    expect(junitFailures(xml).map((failure) => [failure.test, failure.message])).toEqual([
      ["s > t", "boom"],
      ["s > u", "Timeout"],
    ]);
  });

  it("never fails a skipped or todo case, even one that holds a failure", () => {
    const xml = [
      '<testsuites><testsuite name="cart">',
      '<testcase name="applies coupons"><skipped type="todo" message="later"/>',
      '<failure message="0 !== 1">AssertionError: 0 !== 1</failure></testcase>',
      '<testcase name="sums"><failure message="3 !== 4">AssertionError: 3 !== 4</failure></testcase>',
      '<testcase name="charges"><failure message="x">boom</failure><skipped/></testcase>',
      "</testsuite></testsuites>",
    ].join("\n");
    expect(junitFailures(xml).map((failure) => failure.test)).toEqual(["cart > sums"]);
  });

  it("yields nothing when every test passed and survives truncated or hostile XML", () => {
    expect(junitFailures('<testsuite name="s"><testcase name="t"/></testsuite>')).toEqual([]);
    expect(junitFailures('<testsuite name="s"><testcase name="t"><failure message="x')).toEqual([]);
    const deep = "<testsuite name='a'>".repeat(50_000) + "<testcase name='t'><failure/>";
    expect(junitFailures(deep)).toHaveLength(1);
  });
});

describe("junitParser paths", () => {
  it("reads paths relative to the project root that cleaning found, in one directory or several", () => {
    const failing = (file: string): string =>
      `<testcase name="${file}" file="${file}"><failure message="x"/></testcase>`;
    const files = (xml: string): (string | null)[] =>
      junitParser.parse(cleanOutput(xml)).map((failure) => failure.file);
    const two = `<testsuite name="s">${failing("/ci/app/test/a.js")}${failing("/ci/app/src/b.js")}</testsuite>`;
    expect(files(two)).toEqual(["test/a.js", "src/b.js"]);
    const one = `<testsuite name="s">${failing("/ci/app/test/a.js")}</testsuite>`;
    expect(files(one)).toEqual(["test/a.js"]);
    const unmarked = `<testsuite name="s">${failing("/home/ana/a.js")}</testsuite>`;
    expect(files(unmarked)).toEqual(["/home/ana/a.js"]);
  });
});

describe("junitParser names", () => {
  it("names a test under a classname that is a suite (Mocha xunit) or a dotted class (Maven)", () => {
    const xml = `<testsuite name="Mocha Tests" tests="2">
<testcase classname="cart" name="sums prices"><failure>expected 4</failure></testcase>
<testcase classname="com.shop.CartTest" name="sumsPrices"><failure>expected 4</failure></testcase>
<testcase classname="cart sums tax" name="cart sums tax"><failure>expected 4</failure></testcase>
</testsuite>`;
    expect(junitFailures(xml).map((failure) => failure.test)).toEqual([
      "cart > sums prices",
      "com.shop.CartTest.sumsPrices",
      "cart sums tax",
    ]);
  });

  it("names a pytest report's test by the node id pytest's console prints", () => {
    const xml = `<testsuites><testsuite name="pytest" failures="2">
<testcase classname="src.pkg.__init__" name="pkg"><failure message="Failed: Timeout &gt;10.0s">/ci/src/pkg/core.py:520: Failed</failure></testcase>
<testcase classname="tests.test_a.TestX" name="test_y[2]"><failure message="assert 1 == 2">tests/test_a.py:9: AssertionError</failure></testcase>
</testsuite></testsuites>`;
    expect(junitFailures(xml).map((failure) => failure.test)).toEqual([
      "src/pkg/__init__.py::pkg",
      "tests/test_a.py::TestX::test_y[2]",
    ]);
  });

  it("reads node:test's bracketed error as the same error without brackets", () => {
    const xml = `<testsuite name="cart">
<testcase name="a"><failure type="testCodeFailure">[Error [ERR_TEST_FAILURE]: boom] {
  code: 'ERR_TEST_FAILURE'
}</failure></testcase>
<testcase name="b"><failure type="testCodeFailure">Error [ERR_TEST_FAILURE]: boom</failure></testcase>
</testsuite>`;
    expect(junitFailures(xml).map((failure) => failure.message)).toEqual([
      "Error [ERR_TEST_FAILURE]: boom",
      "Error [ERR_TEST_FAILURE]: boom",
    ]);
  });
});
