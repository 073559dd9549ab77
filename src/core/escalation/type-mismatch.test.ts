import { describe, expect, it } from "vitest";
import cargoTypeMismatch from "../../../fixtures/runners/cargo/type-mismatch/output.txt?raw";
import goTypeMismatch from "../../../fixtures/runners/go/type-mismatch/output.txt?raw";
import goTestifyTypeMismatch from "../../../fixtures/runners/go/testify-type-mismatch/output.txt?raw";
import junitConsole from "../../../fixtures/runners/junit5/console/output.txt?raw";
import junitSurefire from "../../../fixtures/runners/junit5/surefire/output.txt?raw";
import phpunitAssertions from "../../../fixtures/runners/phpunit/assertions/output.txt?raw";
import rspecAssertions from "../../../fixtures/runners/rspec/assertions/output.txt?raw";
import unittestAssertions from "../../../fixtures/runners/unittest/assertions/output.txt?raw";
import avaQueryString from "../../../fixtures/real-world/ava/query-string-types-exclude/output.txt?raw";
import jasmineFastXml from "../../../fixtures/real-world/jasmine/fast-xml-parser-attr-numbers/output.txt?raw";
import jestNormalizr from "../../../fixtures/real-world/jest/normalizr-polymorphic-id-string/output.txt?raw";
import mochaJsYaml from "../../../fixtures/real-world/mocha/js-yaml-bool-octal/output.txt?raw";
import nodeTapIni from "../../../fixtures/real-world/node-tap/ini-true-string-tap/output.txt?raw";
import nodeTestCommander from "../../../fixtures/real-world/node-test/commander-choices-implies/output.txt?raw";
import pytestBoltons from "../../../fixtures/real-world/pytest/boltons-doctest-port-string/output.txt?raw";
import pytestMarshmallow from "../../../fixtures/real-world/pytest/marshmallow-integer-string/output.txt?raw";
import tapeMinimist from "../../../fixtures/real-world/tape/minimist-decimals-alias-filter/output.txt?raw";
import vitestPathToRegexp from "../../../fixtures/real-world/vitest/path-to-regexp-undefined-params/output.txt?raw";
import { analyzeAttempt } from "./attempt-analysis.js";
import { attemptRecords } from "./attempt-record.js";
import { typeMismatchPattern } from "./patterns/type-mismatch-pattern.js";
import { findTypeMismatch } from "./type-mismatch.js";
import { failing } from "./test-support/seed-attempts.js";
import { failureOf } from "../feedback/failure-of.js";
import { outputEvidence } from "./output-evidence.js";

/** The first type mismatch among the failures the parsers read from a real output. */
function mismatchIn(output: string) {
  const analysis = analyzeAttempt(failing(1, output));
  for (const failure of analysis.failures) {
    const found = findTypeMismatch(failure, analysis.evidence);
    if (found !== null) return found;
  }
  return null;
}

describe("findTypeMismatch on every runner's real output", () => {
  it.each([
    ["cargo: assert_eq! of two structs", cargoTypeMismatch, "user_id", null],
    ["go: %#v of a map and a struct", goTypeMismatch, "userId", null],
    ["go: testify's Not equal of two maps", goTestifyTypeMismatch, "userId", null],
    ["unittest: the traceback's assertEqual line", unittestAssertions, "user_id", "order"],
    ["RSpec: the Failure/Error line", rspecAssertions, "user_id", "payload"],
    ["PHPUnit: the test method's name", phpunitAssertions, "userId", null],
    ["JUnit 5 console: the value's class, the method's name", junitConsole, "userId", null],
    ["Maven Surefire", junitSurefire, "userId", null],
  ])("%s names the field and both sides", (_name, output, field, subject) => {
    expect(mismatchIn(output)).toMatchObject({
      field,
      subject,
      expected: { type: "number", text: "123" },
      received: { type: "string", text: '"123"' },
    });
  });
});

describe("findTypeMismatch on forms the fixtures do not hold", () => {
  const none = outputEvidence("");

  it("reads testify's typed values and Go's got/want lines", () => {
    const testify = failureOf({
      test: "TestToken/user_id",
      expected: "int(123)",
      received: 'string("123")',
    });
    expect(findTypeMismatch(testify, none)).toMatchObject({
      field: "user_id",
      expectedType: "number",
    });
  });

  it("reads Go's `expected A, but got B` after what was checked, as go-humanize words it", () => {
    const output = [
      "--- FAIL: TestDecode/user_id (0.00s)",
      '    user_test.go:14: On decode(ada), expected 123, but got "123"',
      "FAIL",
    ].join("\n");
    expect(mismatchIn(output)).toMatchObject({
      field: "user_id",
      expected: { type: "number", text: "123" },
      received: { type: "string", text: '"123"' },
    });
  });

  it("compares two arrays printed one element a line pair by pair (js-yaml's mocha diff)", () => {
    // Mocha's `+ expected - actual` diff of `valid_false: [false, false, false]` loaded as strings.
    const output = [
      "  1) Loader",
      "       construct-bool:",
      "",
      "      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
      "      + expected - actual",
      "",
      '         "valid_false": [',
      '      -    "false"',
      '      -    "False"',
      "      +    false",
      "      +    false",
      "         ]",
      "",
      "      at Context.<anonymous> (test/10-loader.js:34:16)",
    ].join("\n");
    expect(mismatchIn(output)).toMatchObject({
      expected: { type: "boolean", text: "false" },
      received: { type: "string", text: '"false"' },
      expectedType: "boolean",
      receivedType: "string",
    });
    const unequal = failureOf({ expected: "1,\n2", received: "'1',\n'3',\n'4'" });
    expect(findTypeMismatch(unequal, none)).toBeNull();
  });

  it("names the field from a test name written in words, never from a verb or an article", () => {
    const values = { expected: "123", received: "'123'" };
    const named = (test: string) => findTypeMismatch(failureOf({ test, ...values }), none)?.field;
    expect(named("login > keeps the user id numeric")).toBe("userId");
    expect(named("parses ids")).toBeNull();
    expect(named("returns the id")).toBeNull();
    expect(named("test_order_total_is_float")).toBe("order_total");
  });
});

describe("the type-mismatch pattern on real projects' outputs (fixtures/real-world)", () => {
  const patternIn = (output: string) =>
    typeMismatchPattern(attemptRecords([failing(1, output)]))?.mismatch ?? null;
  // `output field expected received`, read by hand from each output.
  const outputs: Readonly<Record<string, string>> = {
    avaQueryString,
    jasmineFastXml,
    jestNormalizr,
    mochaJsYaml,
    nodeTapIni,
    nodeTestCommander,
    pytestBoltons,
    pytestMarshmallow,
    tapeMinimist,
    vitestPathToRegexp,
  };
  it.each([
    'avaQueryString id 123 "123"',
    'jasmineFastXml @_int 45 "045"',
    'jestNormalizr id 1 "1"',
    'mochaJsYaml valid_false false "false"',
    'nodeTapIni isTrue true "true"',
    'nodeTestCommander two true "true"',
    'pytestBoltons port 3000 "3000"',
    'pytestMarshmallow age 42 "42"',
    'tapeMinimist y 5.67 "5.67"',
    'vitestPathToRegexp pre undefined "undefined"',
  ])("%s: the field and both sides", (row) => {
    const [name = "", field, expected, received] = row.split(" ");
    expect(patternIn(outputs[name] ?? "")).toMatchObject({
      field,
      expected: { text: expected },
      received: { text: received },
    });
  });
});

describe("outputEvidence: a diff's signs and the arrays its lines sit in", () => {
  it("reads Mocha's `+ expected - actual` the other way round, and the key above the elements", () => {
    const output = [
      "+ expected - actual",
      "",
      '  "valid_false": [',
      '-    "false"',
      "+    false",
      "  ]",
    ];
    const evidence = outputEvidence(output.join("\n"));
    expect(evidence.diff).toEqual({ expected: "false", received: '"false"' });
    expect(evidence.holders).toEqual([{ key: "valid_false", values: ['"false"', "false"] }]);
  });
});
