import { describe, expect, it } from "vitest";
import { jestParser } from "./jest.js";

const text = `FAIL test/token.test.js
  ● login › returns a numeric userId

    expect(received).toBe(expected) // Object.is equality

    Expected: 123
    Received: "123"

      at Object.toBe (test/token.test.js:5:43)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
`;

const suiteFailed = `FAIL test/broken.test.js
  ● Test suite failed to run

    Jest encountered an unexpected token

    SyntaxError: /tmp/p/test/broken.test.js: Unexpected token (5:18)

    > 5 |     expect(total([)).toBe(0);
        |                   ^

PASS test/fine.test.js

Test Suites: 1 failed, 1 passed, 2 total
`;

/** A `--json` report line with one failed assertion whose matcher kept the values. */
function report(matcherResult: Record<string, unknown>): string {
  return JSON.stringify({
    numFailedTestSuites: 1,
    openHandles: [],
    testResults: [
      {
        name: "/p/test/token.test.js",
        status: "failed",
        message: "",
        assertionResults: [
          {
            ancestorTitles: ["login"],
            title: "returns a numeric userId",
            status: "failed",
            failureMessages: [
              'Error: expect(received).toBe(expected)\n\nExpected: 123\nReceived: "123"\n    at Object.toBe (/p/test/token.test.js:5:43)',
            ],
            failureDetails: [{ matcherResult }],
          },
          { ancestorTitles: ["login"], title: "passes", status: "passed", failureMessages: [] },
        ],
      },
    ],
  });
}

describe("jestParser", () => {
  it("detects the default reporter and the --json report, not other runners", () => {
    expect(jestParser.detect(text)).toBe(true);
    expect(jestParser.detect(`stderr text\n${report({})}\n`)).toBe(true);
    expect(jestParser.detect(" Test Files  1 failed (1)\n")).toBe(false);
  });

  it("reads the default reporter with the suite path and the values as printed", () => {
    expect(jestParser.parse(text)).toEqual([
      {
        test: "login › returns a numeric userId",
        file: "test/token.test.js",
        line: 5,
        expected: "123",
        received: '"123"',
        message: "expect(received).toBe(expected) // Object.is equality",
      },
    ]);
  });

  it("reads the whole sides when the changed lines are only brackets (dataloader, Jest 24)", () => {
    const block = (test: string, line: number, second: string) => `  ● Primary API › ${test}

    expect(received).toEqual(expected) // deep equality

    - Expected
    + Received

      Array [
        Array [
          1,
    -   ],
    -   Array [
          ${second},
        ],
      ]

      at Object.<anonymous> (src/__tests__/dataloader.test.js:${line}:23)
`;
    const output = [
      " FAIL  src/__tests__/dataloader.test.js",
      block("batches", 122, "2"),
      block("disables batching", 666, "3"),
      "Tests:       2 failed, 2 total",
    ].join("\n");
    const [batches, disabled] = jestParser.parse(output);
    expect(batches).toMatchObject({
      expected: "Array [\nArray [\n1,\n],\nArray [\n2,\n],\n]",
      received: "Array [\nArray [\n1,\n2,\n],\n]",
    });
    expect(disabled?.expected).not.toBe(batches?.expected);
  });

  it("reads an element moved in a list as the whole sides, without the brackets it dragged or the hunk header (match-sorter)", () => {
    const output = ` FAIL  src/__tests__/index.ts
  ● can handle keys with a maxRanking

    expect(received).toEqual(expected) // deep equality

    - Expected  - 4
    + Received  + 4

    @@ -1,6 +1,6 @@
      Array [
        Object {
    -     "alias": "B",
    -   },
    -   Object {
          "alias": "A",
    +   },
    +   Object {
    +     "alias": "B",
        },
      ]

      at Object.toEqual (src/__tests__/index.ts:655:54)

Tests:       1 failed, 1 total
`;
    // The elements alone read the same on both sides (one moved): the whole sides say the order.
    const [failure] = jestParser.parse(output);
    expect(failure).toMatchObject({
      expected: 'Array [\nObject {\n"alias": "B",\n},\nObject {\n"alias": "A",\n},\n]',
      received: 'Array [\nObject {\n"alias": "A",\n},\nObject {\n"alias": "B",\n},\n]',
    });
  });

  it("reads a received string over the lines it spans, Jest's · as the space it marks (awilix)", () => {
    const output = ` FAIL  src/__tests__/container.test.ts
  ● container › resolve › throws on cyclic dependencies

    expect(received).toContain(expected) // indexOf

    Expected substring: "first -> second -> third -> second"
    Received string:    "Could not resolve \\"second\\". Cyclic dependencies detected.·
    Resolution path: first -> second -> third"

      at Object.<anonymous> (src/__tests__/container.test.ts:434:25)

Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)).toMatchObject([
      {
        line: 434,
        expected: '"first -> second -> third -> second"',
        received:
          '"Could not resolve \\"second\\". Cyclic dependencies detected. \nResolution path: first -> second -> third"',
      },
    ]);
  });

  it("reads a test its recap names with replacement characters for an emoji as the same test (geolib)", () => {
    const block = (name: string) => `  ● getCenterOfBounds › should get the center ${name}

    expect(received).toEqual(expected)

    Expected: 1
    Received: 2

      at Object.<anonymous> (src/getCenterOfBounds.test.js:38:9)
`;
    const output = [
      " FAIL  src/getCenterOfBounds.test.js",
      block("🤷"),
      "Summary of all failing tests",
      " FAIL  src/getCenterOfBounds.test.js",
      block("\uFFFD\uFFFD"),
      "Tests:       1 failed, 1 total",
    ].join("\n");
    const failures = jestParser.parse(output);
    expect(failures.map((failure) => failure.test)).toEqual([
      "getCenterOfBounds › should get the center 🤷",
    ]);
  });

  it("reads a mock's listed calls under a bare `Received`: the one `->` marks, else the latest (strict-event-emitter, memfs)", () => {
    const output = `FAIL test/Emitter/on.test.ts
  ● emits in order

    expect(jest.fn()).toHaveBeenNthCalledWith(n, ...expected)

    n: 1
    Expected: "John"
    Received
    ->     1: ["John"]
           2: ["Joseph"]

    Number of calls: 2

      at Object.<anonymous> (test/Emitter/on.test.ts:26:25)

  ● handles directories being renamed

    expect(jest.fn()).toHaveBeenCalledWith(...expected)

    Expected: "rename", "2"
    Received
           1: "rename", "1"
           2: "rename", ".."

    Number of calls: 2

      at Object.<anonymous> (test/Emitter/on.test.ts:40:25)

Tests:       2 failed, 2 total
`;
    expect(jestParser.parse(output)).toMatchObject([
      { line: 26, expected: '"John"', received: '["John"]' },
      { line: 40, expected: '"rename", "2"', received: '"rename", ".."' },
    ]);
  });

  it("says Jest 24's doubled timeout once, and never takes the code frame for a message (proper-lockfile)", () => {
    const output = `FAIL test/lock.test.js
  ● should set stale to a minimum of 2000

    : Timeout - Async callback was not invoked within the 5000ms timeout specified by jest.setTimeout.Timeout - Async callback was not invoked within the 5000ms timeout specified by jest.setTimeout.Error:

      302 | });
    > 304 | it('should set stale to a minimum of 2000', async () => {
          | ^

      at Object.<anonymous> (test/lock.test.js:304:1)

  ● should ignore ENOENT errors when removing the lockfile

      90 |     const customFs = {
    > 92 |         rmdir: jest.fn((path, callback) => callback(Object.assign(new Error(), { code: 'ENOENT' }))),
         |                                                                   ^

      at Object.<anonymous> (test/unlock.test.js:92:67)

Tests:       2 failed, 2 total
`;
    const [timeout, empty] = jestParser.parse(output);
    expect(timeout?.message).toBe(
      "Timeout - Async callback was not invoked within the 5000ms timeout specified by jest.setTimeout.",
    );
    expect(empty?.message).not.toContain("customFs");
  });

  it("places a toThrow check whose function did not throw at the check's line, inside a loop's callback too (memfs)", () => {
    const output = `FAIL src/__tests__/volume/mkdirSync.test.ts (10.617 s)
  ● mkdirSync › throws EACCES with insufficient permissions on containing directory

    expect(received).toThrowError(expected)

    Expected pattern: /EACCES/

    Received function did not throw

      76 |       expect(() => {
      77 |         vol.mkdirSync(\`/foo/bar\`);
    > 78 |       }).toThrowError(/EACCES/);
         |          ^
      79 |     });

      at src/__tests__/volume/mkdirSync.test.ts:78:10
          at Array.forEach (<anonymous>)
      at Object.<anonymous> (src/__tests__/volume/mkdirSync.test.ts:72:11)

Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)).toMatchObject([
      { file: "src/__tests__/volume/mkdirSync.test.ts", line: 78, expected: "/EACCES/" },
    ]);
  });

  it("places a toThrow check that got another error at the test's line, not where that error was thrown (polished)", () => {
    const output = ` FAIL  src/mixins/test/fluidRange.test.js
  ● fluidRange › should throw an error when passed non-string values for min/maxScreen

    expect(received).toThrow(expected)

    Expected substring: "minScreen and maxScreen must be provided"
    Received message:   "value.match is not a function"

          27 | export default function getValueAndUnit(value: string | number): any {
        > 28 |   const matchedValue = value.match(cssRegex)
             |                              ^

          at getValueAndUnit (src/helpers/getValueAndUnit.js:28:30)
          at between (src/mixins/between.js:36:61)
          at src/mixins/test/fluidRange.test.js:129:17
          at Object.<anonymous> (node_modules/expect/build/toThrowMatchers.js:83:11)
          at Object.<anonymous> (src/mixins/test/fluidRange.test.js:140:8)

      139 |       )
    > 140 |     }).toThrow(
          |        ^

      at Object.<anonymous> (src/mixins/test/fluidRange.test.js:140:8)

Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)).toEqual([
      {
        test: "fluidRange › should throw an error when passed non-string values for min/maxScreen",
        file: "src/mixins/test/fluidRange.test.js",
        line: 140,
        expected: '"minScreen and maxScreen must be provided"',
        received: '"value.match is not a function"',
        message: "expect(received).toThrow(expected)",
      },
    ]);
  });

  it("reads a diff whose header right-aligns the counts (`+ Received  +  1`) as a header", () => {
    const padded = [
      "FAIL test/drop.test.ts",
      "  ● drop › keeps one statement a line",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "",
      "    - Expected  - 10",
      "    + Received  +  1",
      "",
      "    - DROP VIEW a;",
      "    + DROP VIEW a;DROP VIEW b;",
      "",
      "      at Object.<anonymous> (test/drop.test.ts:9:20)",
      "",
      "Tests:       1 failed, 1 total",
    ].join("\n");
    expect(jestParser.parse(padded)).toMatchObject([
      { line: 9, expected: "DROP VIEW a;", received: "DROP VIEW a;DROP VIEW b;" },
    ]);
  });

  it("keeps matcherResult's types as JavaScript literals, undefined for a dropped key", () => {
    const [typed] = jestParser.parse(report({ name: "toBe", expected: 123, actual: "123" }));
    expect(typed).toMatchObject({ expected: "123", received: '"123"', line: 5 });
    const [missing] = jestParser.parse(report({ name: "toBe", expected: "admin" }));
    expect(missing).toMatchObject({ expected: '"admin"', received: "undefined" });
  });

  it("reads a suite that failed to run as a failure of its file, with the error's own words", () => {
    expect(jestParser.parse(suiteFailed)).toEqual([
      {
        test: "test/broken.test.js",
        file: "test/broken.test.js",
        line: 5,
        expected: null,
        received: null,
        message: "SyntaxError: /tmp/p/test/broken.test.js: Unexpected token (5:18)",
      },
    ]);
  });

  it("yields nothing for an all-passing run", () => {
    expect(jestParser.parse("PASS test/a.test.js\n\nTest Suites: 1 passed, 1 total\n")).toEqual([]);
  });
  it("places an assertion made in the spec's own helper at the test's call (dayjs)", () => {
    const output = ` FAIL  test/plugin/timezone.test.js
  ● DST edge cases vs moment › keeps local time when converting a host-local instance

    expect(received).toBe(expected) // Object.is equality

    Expected value to be:
      1710952496789
    Received:
      1710952496078

      29 | const matchMoment = (d, m) => {
      30 |   expect(d.format()).toBe(m.format())
    > 31 |   expect(d.valueOf()).toBe(m.valueOf())
      32 |   expect(d.utcOffset()).toBe(m.utcOffset())

      at matchMoment (test/plugin/timezone.test.js:31:23)
      at Object.<anonymous> (test/plugin/timezone.test.js:545:5)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)).toEqual([
      {
        test: "DST edge cases vs moment › keeps local time when converting a host-local instance",
        file: "test/plugin/timezone.test.js",
        line: 545,
        expected: "1710952496789",
        received: "1710952496078",
        message: "expect(received).toBe(expected) // Object.is equality",
      },
    ]);
  });
  it("reads a custom matcher's one-line `Expected …: X Received: Y (dump)` as two sides (chrono)", () => {
    const output = ` FAIL  test/nl/nl_slash.test.ts
  ● Test - Single Expression

    Expected date to be: Fri Dec 30 2016 12:00:00 GMT+0000 (Coordinated Universal Time) Received: Sat Dec 30 1916 12:00:00 GMT+0000 (Coordinated Universal Time) ([ParsingComponents {
                knownValues: {"day":30,"month":12,"year":1916},
                reference: {"instant":"2026-12-07T08:33:08.856Z","timezoneOffset":null}])

      at Object.<anonymous> (test/nl/nl_slash.test.ts:98:25)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
`;
    const [failure] = jestParser.parse(output);
    expect(failure).toMatchObject({
      file: "test/nl/nl_slash.test.ts",
      line: 98,
      expected: "Fri Dec 30 2016 12:00:00 GMT+0000 (Coordinated Universal Time)",
      received: "Sat Dec 30 1916 12:00:00 GMT+0000 (Coordinated Universal Time)",
    });
  });
  it("reads an inline snapshot's `Snapshot:` as the wanted side, not its `Snapshot name:` (color2k)", () => {
    const output = `FAIL src/toHex.test.ts
  ● hsla w/ transparency

    expect(received).toMatchInlineSnapshot(snapshot)

    Snapshot name: \`hsla w/ transparency 1\`

    Snapshot: "#00ff0080"
    Received: "#00ff007f"

      15 |
      16 | test('hsla w/ transparency', () => {
    > 17 |   expect(toHex('rgba(0, 255, 0, 0.5)')).toMatchInlineSnapshot(\`"#00ff0080"\`);
         |                                         ^

      at Object.toMatchInlineSnapshot (src/toHex.test.ts:17:41)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)).toEqual([
      {
        test: "hsla w/ transparency",
        file: "src/toHex.test.ts",
        line: 17,
        expected: '"#00ff0080"',
        received: '"#00ff007f"',
        message: "expect(received).toMatchInlineSnapshot(snapshot)",
      },
    ]);
  });

  it("reads both sides from a long label's value lines, not one from the diff below (arg: chai under Jest)", () => {
    const output = `FAIL ./test.js
  ● COUNT should count the number of times a flag has been passed

    assert.deepStrictEqual(received, expected)

    Expected value to deeply and strictly equal to:
      {"--verbose": 9, "_": ["foo"]}
    Received:
      {"--verbose": 7, "_": ["foo"]}

    Message:
      expected { _: [ 'foo' ], '--verbose': 7 } to deeply equal { _: [ 'foo' ], '--verbose': 9 }

    Difference:

    - Expected
    + Received

      Object {
    -   "--verbose": 9,
    +   "--verbose": 7,
        "_": Array [
          "foo",
        ],
      }

      at Object.<anonymous> (test.js:359:23)

Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)[0]).toMatchObject({
      expected: '{"--verbose": 9, "_": ["foo"]}',
      received: '{"--verbose": 7, "_": ["foo"]}',
    });
  });

  it("keeps an empty object a side is as that side, beside the other's elements (class-transformer)", () => {
    const output = `FAIL test/functional/basic-functionality.spec.ts
  ● basic functionality › should convert instance of the given object to plain javascript object

    expect(received).toEqual(expected) // deep equality

    - Expected
    + Received

    - Object {}
    + Object {
    +   "firstName": "Umed",
    +   "lastName": "Khudoiberdiev",
    + }

      at Object.<anonymous> (test/functional/basic-functionality.spec.ts:261:27)

Tests:       1 failed, 1 total
`;
    expect(jestParser.parse(output)[0]).toMatchObject({
      expected: "Object {}",
      received: '"firstName": "Umed",\n"lastName": "Khudoiberdiev",',
    });
  });
});
