import { describe, expect, it } from "vitest";
import nanoid from "../../../../fixtures/real-world/node-test/nanoid-substring-subarray-spec/output.txt?raw";
import { cleanOutput } from "../test-feedback.js";
import { nodeTestParser } from "./node-test.js";
import contentType from "../../../../fixtures/real-world/node-test/fast-content-type-parse-unanchored-type-quote-slice-null-guard-tap/output.txt?raw";
import cartSuites from "../../../../fixtures/runners/node-test/assertions/output.tap.txt?raw";

const spec = `▶ slow
  ✖ finishes in time (102.2ms)
    'test timed out after 100ms'

✖ slow (105.1ms)
ℹ tests 1
ℹ fail 0
ℹ cancelled 1
ℹ duration_ms 2205.8

✖ failing tests:

test at test/slow.test.js:6:3
✖ finishes in time (102.2ms)
  'test timed out after 100ms'
`;

const loadFailure = `TAP version 13
# file:///p/test/broken.test.js:7
#     assert.strictEqual(total([)), 0);
#                               ^
# SyntaxError: Unexpected token ')'
#     at compileSourceTextModule (node:internal/modules/esm/utils:346:16)
# Subtest: /p/test/broken.test.js
not ok 1 - /p/test/broken.test.js
  ---
  duration_ms: 135.2
  location: '/p/test/broken.test.js:1:1'
  failureType: 'testCodeFailure'
  error: 'test failed'
  ...
1..1
`;

// Node cuts a stack at ten frames: a deep error's stack never reaches the test's own frame.
const deepError = `✖ parses choices (0.5ms)
  TypeError [Error]: this.argChoices.contains is not a function
      at Argument.parseArg (file:///p/lib/argument.js:101:28)
      at Command.parse (file:///p/lib/command.js:1084:10)

ℹ tests 1
ℹ fail 1
ℹ duration_ms 20.1

✖ failing tests:

test at tests/argument.test.js:82:3
✖ parses choices (0.5ms)
  TypeError [Error]: this.argChoices.contains is not a function
      at Argument.parseArg (file:///p/lib/argument.js:101:28)
`;

describe("nodeTestParser", () => {
  it("counts a parent test that failed only by its subtests out of TAP's `# fail`, a suite never in it", () => {
    // fast-content-type-parse: `# fail 10` counts `parse` and `safeParse`, two `test()`s whose
    // eight subtests failed; the fixture's `describe` suites are not in its `# fail 5`.
    const parents = cleanOutput(contentType);
    expect(nodeTestParser.reportedFailures?.(parents)).toBe(8);
    expect(nodeTestParser.parse(parents)).toHaveLength(8);
    const suites = cleanOutput(cartSuites);
    expect(nodeTestParser.reportedFailures?.(suites)).toBe(5);
  });

  it("keeps two tests of one name in two files apart, each with its own recap line", () => {
    // ai/nanoid (held-out-6): `generates large IDs` in test/index.test.js and test/pool.test.js.
    const output = cleanOutput(nanoid);
    const failures = nodeTestParser.parse(output);
    expect(failures).toHaveLength(nodeTestParser.reportedFailures?.(output) ?? -1);
    const large = failures.filter((failure) => failure.test?.endsWith("generates large IDs"));
    expect(
      large.map(({ test, file, line, testLocation }) => ({ test, file, line, testLocation })),
    ).toEqual([
      {
        test: "node > generates large IDs",
        file: "test/index.test.js",
        line: 53,
        testLocation: undefined,
      },
      {
        test: "pool pollution > generates large IDs",
        file: "test/pool.test.js",
        line: 15,
        testLocation: undefined,
      },
    ]);
  });

  it("keeps the recap's `test at` place as the test's own when the stack is cut before it", () => {
    expect(nodeTestParser.parse(deepError)).toEqual([
      {
        test: "parses choices",
        file: "/p/lib/argument.js",
        line: 101,
        expected: null,
        received: null,
        message: "TypeError [Error]: this.argChoices.contains is not a function",
        testLocation: { file: "tests/argument.test.js", line: 82 },
      },
    ]);
  });

  it("completes a spec failure with the recap's location and the quoted message", () => {
    expect(nodeTestParser.detect(spec)).toBe(true);
    expect(nodeTestParser.parse(spec)).toEqual([
      {
        test: "slow > finishes in time",
        file: "test/slow.test.js",
        line: 6,
        expected: null,
        received: null,
        message: "test timed out after 100ms",
      },
    ]);
  });

  it("reads a file that did not load from the error Node printed for it", () => {
    expect(nodeTestParser.detect(loadFailure)).toBe(true);
    expect(nodeTestParser.parse(loadFailure)).toEqual([
      {
        test: "/p/test/broken.test.js",
        file: "/p/test/broken.test.js",
        line: 7,
        expected: null,
        received: null,
        message: "SyntaxError: Unexpected token ')'",
      },
    ]);
  });

  it("reads node:assert's diff of a multi-line string as its lines, not JavaScript pieces", () => {
    const tap = `TAP version 13
# Subtest: should align center
not ok 1 - should align center
  ---
  duration_ms: 15.8
  location: '/p/test.js:114:11'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:
    + actual - expected

      '| Beep |   No.   |\\n' +
    +   '| beep |  1024   |\\n' +
    -   '| beep |   1024  |\\n' +
        '| foo  |  10106  |'
  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  operator: 'strictEqual'
  stack: |-
    TestContext.<anonymous> (file:///p/test.js:115:12)
  ...
1..1
# tests 1
# fail 1
`;
    expect(nodeTestParser.parse(tap)).toMatchObject([
      { line: 115, expected: "| beep |   1024  |", received: "| beep |  1024   |" },
    ]);
  });

  it("reads its JUnit report; not another runner's", () => {
    const junit = `<testsuites><testsuite name="cart" hostname="vm">
<testcase name="sums" classname="test"><failure type="testCodeFailure" message="x">
Error [ERR_TEST_FAILURE]: Expected values to be strictly equal:

3 !== 4

    at TestContext.&lt;anonymous> (file:///p/test/cart.test.js:7:12)
</failure></testcase></testsuite></testsuites>`;
    expect(nodeTestParser.detect(junit)).toBe(true);
    expect(nodeTestParser.parse(junit)).toMatchObject([
      { test: "cart > sums", expected: "4", received: "3", line: 7 },
    ]);
    expect(nodeTestParser.detect('<testsuites name="vitest tests"><testcase/>')).toBe(false);
  });

  it("leaves Vitest's TAP to the TAP reader, though a node:test file's TAP is printed in it (defu)", () => {
    // From a real `vitest run --reporter=tap` of unjs/defu (held-out-9's project), shortened.
    const output = `TAP version 13
# Subtest: isPlainObject
ok 1 - isPlainObject
  ---
  duration_ms: 1.49874
  type: 'suite'
  ...
TAP version 13
1..2
not ok 1 - test/defu.test.ts # time=22.87ms {
    1..1
    not ok 1 - defu # time=22.23ms {
        1..21
        ok 1 - should copy only missing properties defaults # time=2.01ms
        not ok 4 - should concat array values by default # time=8.69ms
            ---
            error:
                name: "AssertionError"
                message: "expected { array: [ 'c', 'd' ] } to deeply equal { array: [ 'd', 'c' ] }"
            at: "/work/heldout9/defu/test/defu.test.ts:36:20"
            ...
    }
}
`;
    expect(nodeTestParser.detect(output)).toBe(false);
  });

  it("counts the spec reporter's failing-tests recap, not `ℹ fail` with the parents of failed subtests (hast-util-to-html)", () => {
    const output = `▶ comment
  ✖ should prevent \`>a\` (security) (1.820344ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
✖ \`comment\` (28.908889ms)
ℹ tests 3
ℹ suites 0
ℹ pass 1
ℹ fail 2
ℹ cancelled 0
ℹ skipped 0
ℹ todo 0
ℹ duration_ms 30.1

✖ failing tests:

test at test/comment.js:54:13
✖ should prevent \`>a\` (security) (1.820344ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
      at TestContext.<anonymous> (file:///work/hast-util-to-html/test/comment.js:61:16)
`;
    expect(nodeTestParser.reportedFailures?.(output)).toBe(1);
  });
});
