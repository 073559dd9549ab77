import { describe, expect, it } from "vitest";
import { jasmineParser } from "./jasmine.js";
import { cleanOutput } from "../test-feedback.js";
import { failureOf } from "../failure-of.js";

// Jasmine 5's default reporter, as captured from a scratch project.
const output = `Started
FF*.

Failures:
1) login returns a numeric userId
  Message:
    Expected '123' to be 123.
  Stack:
        at <Jasmine>
        at expectToken (/ci/app/spec/helpers/expect-token.js:2:24)
        at UserContext.<anonymous> (/ci/app/spec/token.spec.js:6:5)
        at <Jasmine>

2) multi two expectations
  Message:
    Expected 1 to be 2.
  Stack:
        at <Jasmine>
        at UserContext.<anonymous> (/ci/app/spec/token.spec.js:13:15)
        at <Jasmine>
  Message:
    Expected $.a = 1 to equal 2.
    Expected $.b[1] = 2 to equal 3.
  Stack:
        at <Jasmine>
        at UserContext.<anonymous> (/ci/app/spec/token.spec.js:14:33)
        at <Jasmine>

Suite error: multi
  Message:
    Error: cleanup failed
  Stack:
        at UserContext.<anonymous> (/ci/app/spec/token.spec.js:20:26)
        at <Jasmine>
Pending:

1) cart applies coupons
  Temporarily disabled with xit

4 specs, 3 failures, 1 pending spec
Finished in 0.047 seconds
`;

describe("jasmineParser", () => {
  it("reads each failed expectation at the spec's own frame, with the values of its message", () => {
    expect(jasmineParser.detect(output)).toBe(true);
    expect(jasmineParser.parse(output)).toEqual([
      failureOf({
        test: "login returns a numeric userId",
        file: "/ci/app/spec/token.spec.js",
        line: 6,
        expected: "123",
        received: "'123'",
        message: "Expected '123' to be 123.",
      }),
      failureOf({
        test: "multi two expectations",
        file: "/ci/app/spec/token.spec.js",
        line: 13,
        expected: "2",
        received: "1",
        message: "Expected 1 to be 2.",
      }),
      failureOf({
        test: "multi two expectations",
        file: "/ci/app/spec/token.spec.js",
        line: 14,
        expected: "2",
        received: "1",
        message: "Expected $.a = 1 to equal 2. Expected $.b[1] = 2 to equal 3.",
      }),
      failureOf({
        test: "multi",
        file: "/ci/app/spec/token.spec.js",
        line: 20,
        message: "Error: cleanup failed",
      }),
    ]);
    expect(jasmineParser.reportedFailures?.(output)).toBe(3);
  });

  it("never counts a pending spec, and reads no values from a matcher's name", () => {
    const pendingOnly =
      "Started\n*\n\nPending:\n\n1) cart applies coupons\n  No reason given\n\n1 spec, 0 failures, 1 pending spec\n";
    expect(jasmineParser.parse(pendingOnly)).toEqual([]);
    const defined = [
      "Failures:",
      "1) a b",
      "  Message:",
      "    Expected undefined to be defined.",
      "  Stack:",
      "        at UserContext.<anonymous> (spec/a.spec.js:3:5)",
      "",
      "1 spec, 1 failure",
    ].join("\n");
    expect(jasmineParser.parse(defined)).toEqual([
      failureOf({
        test: "a b",
        file: "spec/a.spec.js",
        line: 3,
        message: "Expected undefined to be defined.",
      }),
    ]);
  });

  it("places an expectation made in a callback of the spec at the callback's line (string-similarity)", () => {
    // Jasmine 3: `testData.forEach(td => expect(f(td)).toBe(td.expected, td))` in the spec's body;
    // the matcher's last argument is printed after the expected value.
    const output = [
      "Failures:",
      "1) compareTwoStrings returns the correct value for different inputs:",
      "  Message:",
      "    Expected 0.16666666666666666 to be 0.2, Object({ first: 'fRaNce', second: 'france', expected: 0.2 }).",
      "  Stack:",
      "    Error: Expected 0.16666666666666666 to be 0.2, Object({ first: 'fRaNce', second: 'france', expected: 0.2 }).",
      "        at <Jasmine>",
      "        at /ci/ss/src/spec/index.spec.js:32:54",
      "        at <Jasmine>",
      "        at UserContext.<anonymous> (/ci/ss/src/spec/index.spec.js:31:14)",
      "",
      "11 specs, 1 failure",
    ].join("\n");
    expect(jasmineParser.parse(output)).toEqual([
      failureOf({
        test: "compareTwoStrings returns the correct value for different inputs:",
        file: "/ci/ss/src/spec/index.spec.js",
        line: 32,
        expected: "0.2",
        received: "0.16666666666666666",
        message:
          "Expected 0.16666666666666666 to be 0.2, Object({ first: 'fRaNce', second: 'france', expected: 0.2 }).",
      }),
    ]);
  });

  it("does not claim Mocha's numbered failures", () => {
    expect(jasmineParser.detect("  1 passing (2ms)\n  1 failing\n\n  1) a\n       b:\n")).toBe(
      false,
    );
  });

  it("reads the values of toEqual's first element difference, not of a length (JSON-Patch)", () => {
    // jasmine 3.4 on Starcounter-Jack/JSON-Patch (fixtures/real-world/jasmine/json-patch-splice-remove-array).
    const run = `Failures:
1) json-patch-tests tests.json should succeed: [{"op":"add","path":"/0","value":"bar"}]
  Message:
    Expected $.length = 2 to equal 3.
    Expected $[1] = 'sil' to equal 'foo'.
    Expected $[2] = undefined to equal 'sil'.
  Stack:
    Error: Expected $.length = 2 to equal 3.
    Expected $[1] = 'sil' to equal 'foo'.
    Expected $[2] = undefined to equal 'sil'.
        at <Jasmine>
        at UserContext.<anonymous> (file:///work/heldout20/JSON-Patch/test/spec/jsonPatchTestsSpec.mjs:37:30)
        at <Jasmine>

215 specs, 1 failure
`;
    expect(jasmineParser.parse(run)).toEqual([
      failureOf({
        test: 'json-patch-tests tests.json should succeed: [{"op":"add","path":"/0","value":"bar"}]',
        file: "/work/heldout20/JSON-Patch/test/spec/jsonPatchTestsSpec.mjs",
        line: 37,
        expected: "'foo'",
        received: "'sil'",
        message:
          "Expected $.length = 2 to equal 3. Expected $[1] = 'sil' to equal 'foo'. Expected $[2] = undefined to equal 'sil'.",
      }),
    ]);
  });

  it("reads jasmine-spec-reporter's Failures list: each listed expectation a failure, a matcher's with its values (cordova-common)", () => {
    const output = `  config-changes module
    ✗ should overwrite config.xml config munge (0.109 sec)
      - Expected '14' to equal '5'.

**************************************************
*                    Failures                    *
**************************************************

1) config-changes module should overwrite config.xml config munge
  - Expected '14' to equal '5'.
      at UserContext.<anonymous> (/work/cordova-common/spec/ConfigChanges.spec.js:425:65)
      at <Jasmine>
  - Expected undefined to equal '/*'.
      at UserContext.<anonymous> (/work/cordova-common/spec/ConfigChanges.spec.js:546:49)
      at <Jasmine>

2) PluginManager addPlugin should save plugin metadata
  - TypeError: Cannot read properties of undefined (reading 'map')
      at /work/cordova-common/src/PluginManager.js:121:46

Executed 279 of 279 specs (2 FAILED) in 4 secs.
`;
    expect(jasmineParser.detect(output)).toBe(true);
    expect(jasmineParser.reportedFailures?.(output)).toBe(2);
    expect(jasmineParser.parse(cleanOutput(output))).toMatchObject([
      {
        test: "config-changes module should overwrite config.xml config munge",
        line: 425,
        expected: "'5'",
        received: "'14'",
      },
      { line: 546, expected: "'/*'", received: "undefined" },
      {
        test: "PluginManager addPlugin should save plugin metadata",
        line: 121,
        expected: null,
        message: "TypeError: Cannot read properties of undefined (reading 'map')",
      },
    ]);
  });
});
