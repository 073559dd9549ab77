import { describe, expect, it } from "vitest";
import { phpunitParser } from "./phpunit.js";
import { failureOf } from "../failure-of.js";

// PHPUnit 10's layout: the same sections, a runner warning beside them.
const OUTPUT = `PHPUnit 10.5.1 by Sebastian Bergmann and contributors.

FW                                                                  2 / 2 (100%)

There was 1 PHPUnit test runner warning:

1) No code coverage driver available

--

There was 1 failure:

1) App\\Tests\\SlugTest::testSlug
Slugs use dashes
Failed asserting that two strings are identical.
--- Expected
+++ Actual
@@ @@
-'a-b'
+'a_b'

/app/tests/SlugTest.php:14
/app/vendor/phpunit/phpunit/src/Framework/TestCase.php:1122

FAILURES!
Tests: 2, Assertions: 2, Failures: 1, Warnings: 1.
`;

describe("phpunitParser", () => {
  it("reads failures (not runner warnings): message, the diff's sides, the first frame outside vendor/", () => {
    expect(phpunitParser.parse(OUTPUT)).toEqual([
      failureOf({
        test: "App\\Tests\\SlugTest::testSlug",
        file: "/app/tests/SlugTest.php",
        line: 14,
        expected: "'a-b'",
        received: "'a_b'",
        message: "Failed asserting that two strings are identical. Slugs use dashes",
      }),
    ]);
    expect(phpunitParser.reportedFailures?.(OUTPUT)).toBe(1);
    expect(phpunitParser.reportedFailures?.("OK (3 tests, 5 assertions)")).toBe(0);
  });
});
