import { describe, expect, it } from "vitest";
import { junit5Parser } from "./junit5.js";
import { failureOf } from "../failure-of.js";

// Surefire 3 with JUnit 4: `--` before the timing, JUnit 4's `expected:<…> but was:<…>`.
const SUREFIRE_3 = `[INFO] Running com.acme.MathTest
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! -- in com.acme.MathTest
[ERROR] com.acme.MathTest.adds -- Time elapsed: 0.01 s <<< FAILURE!
java.lang.AssertionError: expected:<4> but was:<5>
	at org.junit.Assert.fail(Assert.java:89)
	at com.acme.MathTest.adds(MathTest.java:12)

[INFO] Results:
[ERROR] Failures:
[ERROR]   MathTest.adds:12 expected:<4> but was:<5>
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0
`;

describe("junit5Parser", () => {
  it("reads Surefire 3 and JUnit 4 reports, the frame as package/File.java", () => {
    expect(junit5Parser.parse(SUREFIRE_3)).toEqual([
      failureOf({
        test: "com.acme.MathTest.adds",
        file: "src/test/java/com/acme/MathTest.java",
        line: 12,
        expected: "<4>",
        received: "<5>",
        message: "java.lang.AssertionError: expected:<4> but was:<5>",
      }),
    ]);
    expect(junit5Parser.reportedFailures?.(SUREFIRE_3)).toBe(1);
  });
  it("keeps the angle brackets JUnit quotes values with (commons-cli, fixtures/real-world)", () => {
    const output = `Failures (1):
  JUnit Jupiter:DefaultParserTest:testLongWithEqualDoubleDash()
    MethodSource [className = 'org.apache.commons.cli.DefaultParserTest', methodName = 'testLongWithEqualDoubleDash', methodParameterTypes = '']
    => org.opentest4j.AssertionFailedError: expected: <bar> but was: <=bar>
       org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
       org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1142)
       org.apache.commons.cli.AbstractParserTestCase.testLongWithEqualDoubleDash(AbstractParserTestCase.java:203)
       java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)

[         1 tests failed          ]
`;
    expect(junit5Parser.parse(output)).toEqual([
      failureOf({
        test: "JUnit Jupiter:DefaultParserTest:testLongWithEqualDoubleDash()",
        file: "src/test/java/org/apache/commons/cli/AbstractParserTestCase.java",
        line: 203,
        expected: "<bar>",
        received: "<=bar>",
        message: "org.opentest4j.AssertionFailedError: expected: <bar> but was: <=bar>",
      }),
    ]);
  });
});
