import { describe, expect, it } from "vitest";
import { avaParser } from "./ava.js";
import { failureOf } from "../failure-of.js";
import { cleanOutput } from "../test-feedback.js";

// The shapes of ava 6's default reporter, as captured from a scratch project.
const output = `
  ✘ [fail]: truthy
  ✘ [fail]: with message counts must match
  - [skip] applies coupons
  - [todo] rounds totals
  ✘ [fail]: rejects Rejected promise returned by test
  ✔ passes

  Uncaught exception in test/more.test.js

  test/more.test.js:12

   11: test("snapshot", (t) => { t.snapshot({a: 1}); });
   12: test("uncaught", (t) => { setTimeout(() => { throw new Error("late boom"…

  Error: late boom

  › Timeout._onTimeout (test/more.test.js:12:52)

  ✘ test/more.test.js exited with a non-zero exit code: 1
  ─

  truthy

  test/more.test.js:3

   3: test("truthy", (t) => { t.true(1 === 2); });

  Value is not \`true\`:

  false

  › test/more.test.js:3:31



  with message

  test/more.test.js:4

   4: test("with message", (t) => { t.is(1, 2, "counts must match"); });

  counts must match

  Difference (- actual, + expected):

    {
  -   id: '1',
  +   id: 1,
    }

  › check (test/helpers/check.js:2:5)
  › test/more.test.js:4:33



  rejects

  Rejected promise returned by test. Reason:

  TypeError {
    message: 'bad input',
  }

  TypeError: bad input
      at parse (/ci/app/src/parse.js:8:53)
      at /ci/app/test/more.test.js:8:20
      at Test.callFn (file:///ci/app/node_modules/ava/lib/test.js:525:26)

  ─

  3 tests failed
  1 test skipped
  1 test todo
  1 uncaught exception
`;

describe("avaParser", () => {
  it("reads each block's location line, words and values; skipped and todo tests are no failures", () => {
    expect(avaParser.detect(output)).toBe(true);
    expect(avaParser.parse(cleanOutput(output))).toEqual([
      failureOf({
        test: "test/more.test.js",
        file: "test/more.test.js",
        line: 12,
        message: "Error: late boom",
      }),
      failureOf({
        test: "truthy",
        file: "test/more.test.js",
        line: 3,
        received: "false",
        message: "Value is not `true`",
      }),
      failureOf({
        test: "with message",
        file: "test/more.test.js",
        line: 4,
        expected: "id: 1,",
        received: "id: '1',",
        // The custom message is the test's; the diff's header says which check failed.
        message: "counts must match: Difference (- actual, + expected)",
      }),
      failureOf({
        test: "rejects",
        file: "src/parse.js",
        line: 8,
        message: "TypeError: bad input",
        testLocation: { file: "test/more.test.js", line: 8 },
      }),
    ]);
    expect(avaParser.reportedFailures?.(output)).toBe(4);
  });

  it("fails the tests ava was still waiting for when it timed out", () => {
    const timeout = [
      "  ✔ answers quickly",
      "",
      "  ✘ Timed out while running tests",
      "",
      "  2 tests were pending in test/wait.test.js",
      "",
      "  ◌ waits for the queue",
      "  ◌ drains",
      "",
      "  ─",
      "",
      "  1 test passed",
      "  2 tests remained pending after a timeout",
    ].join("\n");
    expect(avaParser.detect(timeout)).toBe(true);
    expect(avaParser.parse(cleanOutput(timeout)).map((f) => [f.test, f.file, f.message])).toEqual([
      ["waits for the queue", "test/wait.test.js", "Timed out while running tests"],
      ["drains", "test/wait.test.js", "Timed out while running tests"],
    ]);
    expect(avaParser.reportedFailures?.(timeout)).toBe(2);
  });

  it("reads ava 3's list, its file:// frames and an error printed as an object (slugify)", () => {
    // The shape of fixtures/real-world/ava/slugify-decamelize-counter-endswith, colour removed.
    const ava3 = [
      "",
      "  ✖ main ",
      "  ✔ custom separator",
      "  ✖ trailing dash Error thrown in test",
      "  ─",
      "",
      "  main",
      "",
      "  Difference:",
      "",
      "  - 'foobar'",
      "  + 'foo-bar'",
      "",
      "  › file://test.js:11:4",
      "",
      "",
      "",
      "  trailing dash",
      "",
      "  Error thrown in test:",
      "",
      "  TypeError {",
      "    message: 'string.endswith is not a function (reading \\'x\\')',",
      "  }",
      "",
      "  › slugify (file://index.js:58:66)",
      "  › file://test.js:148:7",
      "",
      "  ─",
      "",
      "  2 tests failed",
    ].join("\n");
    expect(avaParser.detect(ava3)).toBe(true);
    expect(avaParser.reportedFailures?.(ava3)).toBe(2);
    expect(avaParser.parse(ava3)).toEqual([
      failureOf({
        test: "main",
        file: "test.js",
        line: 11,
        expected: "'foo-bar'",
        received: "'foobar'",
        message: "Difference",
      }),
      failureOf({
        test: "trailing dash",
        file: "index.js",
        line: 58,
        // The inspected string's escaped quotes read as the quotes they stand for.
        message: "TypeError: string.endswith is not a function (reading 'x')",
        testLocation: { file: "test.js", line: 148 },
      }),
    ]);
  });

  it("places an error thrown in the code under test where it was thrown, and a helper's failed check at the test's call (normalize-url, serialize-error)", () => {
    const output = [
      "  ✘ [fail]: data URL Error thrown in test",
      "  ✘ [fail]: should deserialize string",
      "  ─",
      "",
      "  data URL",
      "",
      "  test.js:346",
      "",
      "   346:   t.is(normalizeUrl('data:;charset=us-ascii,foo'), 'data:,foo');",
      "",
      "  Error thrown in test:",
      "",
      "  Error {",
      "    message: 'Invalid URL: data:;charset=us-ascii,foo',",
      "  }",
      "",
      "  › normalizeDataURL (file://index.js:29:9)",
      "  › normalizeUrl (file://index.js:104:10)",
      "  › file://test.js:346:7",
      "",
      "",
      "",
      "  should deserialize string",
      "",
      "  test.js:16",
      "",
      "   16:   t.is(deserialized.message, JSON.stringify(value));",
      "",
      "  Difference (- actual, + expected):",
      "",
      "  - '123'",
      "  + '\"123\"'",
      "",
      "  › deserializeNonError (file://test.js:16:4)",
      "  › file://test.js:200:2",
      "",
      "  ─",
      "",
      "  2 tests failed",
      "",
    ].join("\n");
    expect(avaParser.parse(cleanOutput(output))).toMatchObject([
      {
        test: "data URL",
        file: "index.js",
        line: 29,
        testLocation: { file: "test.js", line: 346 },
      },
      { test: "should deserialize string", file: "test.js", line: 200 },
    ]);
  });

  it("does not claim Mocha's or node:test's output", () => {
    expect(avaParser.detect("  1 failing\n\n  1) cart\n       sums:\n")).toBe(false);
    expect(avaParser.detect("✖ sums (1ms)\nℹ tests 1\n")).toBe(false);
    expect(avaParser.detect("  ✖ sums (1ms)\n  ─\n  ℹ fail 1\n")).toBe(false);
  });
});
