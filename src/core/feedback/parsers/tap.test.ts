import { describe, expect, it } from "vitest";
import { cleanOutput } from "../test-feedback.js";
import { tapParser } from "./tap.js";

const tape = `TAP version 13
# cart sums prices
not ok 1 should be strictly equal
  ---
    operator: equal
    expected: 4
    actual:   3
    at: Test.<anonymous> (file:///p/test/cart.test.js:5:5)
  ...
# login parses ids
file:///p/src/account.js:10
  if (text === "") throw new RangeError("empty id");
                   ^

RangeError: empty id
    at parseId (file:///p/src/account.js:10:26)
`;

const nodeTap = `TAP version 14
# Subtest: login returns a numeric userId
    not ok 1 - should be equal
      ---
      found: "123"
      wanted: 123
      at:
        fileName: test/token.test.js
        lineNumber: 6
      source: |

        test("login returns a numeric userId", (t) => {
        ----^
      ...
    1..1
not ok 1 - login returns a numeric userId
1..1
`;

describe("tapParser", () => {
  it("names tape's assertions after their comment, reads a throw as its test's failure, relative paths", () => {
    expect(tapParser.detect(tape)).toBe(true);
    expect(tapParser.parse(cleanOutput(tape))).toEqual([
      {
        test: "cart sums prices > should be strictly equal",
        file: "test/cart.test.js",
        line: 5,
        expected: "4",
        received: "3",
        message: "should be strictly equal",
      },
      {
        test: "login parses ids",
        file: "src/account.js",
        line: 10,
        expected: null,
        received: null,
        message: "RangeError: empty id",
      },
    ]);
  });

  it("reads an error Node printed without a stack as its test's failure, at Node's header", () => {
    // fastify/secure-json-parse (held-out-6): the library sets Error.stackTraceLimit = 0.
    const output = `TAP version 13
# handles constructor null safely
/work/app/index.js:85
      if (Object.prototype.hasOwnProperty.call(node, '__proto__')) {
                                         ^

[TypeError: Cannot convert undefined or null to object]

Node.js v20.20.2
`;
    expect(tapParser.parse(cleanOutput(output))).toMatchObject([
      {
        test: "handles constructor null safely",
        file: "/work/app/index.js",
        line: 85,
        message: "TypeError: Cannot convert undefined or null to object",
      },
    ]);
  });

  it("reads node-tap's wanted/found with their YAML quoting and skips the quoted source", () => {
    expect(tapParser.parse(nodeTap)).toEqual([
      {
        test: "login returns a numeric userId > should be equal",
        file: "test/token.test.js",
        line: 6,
        expected: "123",
        received: '"123"',
        message: "should be equal",
      },
    ]);
  });

  it("detects a plan with test lines, yields nothing when all pass", () => {
    const passing = "1..2\nok 1 - a\nok 2 - b\n";
    expect(tapParser.detect(passing)).toBe(true);
    expect(tapParser.parse(passing)).toEqual([]);
    expect(tapParser.detect("ok then\n")).toBe(false);
  });

  it("reads TAP 14 buffered subtests (Vitest's tap reporter) as suites, not failures", () => {
    const output = `TAP version 13
1..1
not ok 1 - test/cart.test.js # time=17.58ms {
    1..1
    not ok 1 - cart # time=16.67ms {
        1..1
        not ok 1 - sums prices # time=8.71ms
            ---
            error:
                name: "AssertionError"
                message: "expected 3 to be 4"
            at: "test/cart.test.js:6:49"
            ...
    }
}
`;
    expect(tapParser.parse(output).map((failure) => [failure.test, failure.line])).toEqual([
      ["test/cart.test.js > cart > sums prices", 6],
    ]);
  });

  it("reads a node-tap file that failed to load from Node's error above it", () => {
    const output = `TAP version 14
1..1
file:///ci/app/test/broken.test.js:5
  t.equal(total([)), 0);
                 ^

SyntaxError: Unexpected token ')'
    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)
# Subtest: test/broken.test.js
    1..0 # no tests found
not ok 1 - test/broken.test.js # time=2509.038ms
  ---
  exitCode: 1
  ...
`;
    expect(tapParser.parse(output)).toEqual([
      {
        test: "test/broken.test.js",
        file: "test/broken.test.js",
        line: 5,
        expected: null,
        received: null,
        message: "SyntaxError: Unexpected token ')'",
      },
    ]);
  });
  it("keeps a diff line's trailing comma, as printed (node-tap on ini, fixtures/real-world)", () => {
    const output = `TAP version 13
# Subtest: test/bar.js
    # Subtest: parse(stringify(x)) is same as x
${iniCheck(3, "isTrue")}`;
    expect(tapParser.parse(output)).toEqual([
      expect.objectContaining({
        file: "test/bar.js",
        line: 17,
        expected: '"isTrue": true,',
        received: '"isTrue": "true",',
      }),
    ]);
  });
  it("keeps two failed checks of one test at one line apart by their values (a loop's assertions)", () => {
    const output = `TAP version 13
# Subtest: test/bar.js
    # Subtest: parse(stringify(x)) is same as x
${iniCheck(3, "isTrue")}${iniCheck(4, "abides")}${iniCheck(5, "abides")}        1..5
`;
    // The third check repeats the second word for word: one failure reported twice is one.
    expect(tapParser.parse(output).map(({ line, expected }) => ({ line, expected }))).toEqual([
      { line: 17, expected: '"isTrue": true,' },
      { line: 17, expected: '"abides": true,' },
    ]);
  });

  it("reads tape's operator when the error only repeats the assertion's name (object-inspect)", () => {
    const output = `TAP version 13
# two deep object with indent
not ok 62 two
  ---
    operator: equal
    expected: |-
      '{\\n  a: 1,\\n  b: {\\n    c: 3,\\n    d: 4\\n  }\\n}'
    actual: |-
      '{\\n  a: 1,\\n  b: {\\n  c: 3,\\n  d: 4\\n}\\n}'
    at: Test.<anonymous> (/tmp/rw/object-inspect/test/indent-option.js:73:7)
    stack: |-
      Error: two
          at Test.assert [as _assert] (/tmp/rw/object-inspect/node_modules/tape/lib/test.js:548:48)
          at Test.<anonymous> (/tmp/rw/object-inspect/test/indent-option.js:73:7)
  ...
# Map
not ok 70 Map containing a Map should work (two)
  ---
    operator: equal
    expected: |-
      'Map (1) {}'
    actual: |-
      'Map (2) {}'
    at: Test.<anonymous> (/tmp/rw/object-inspect/test/indent-option.js:210:7)
    stack: |-
      Error: Map containing a Map should work (two)
          at Test.<anonymous> (/tmp/rw/object-inspect/test/indent-option.js:210:7)
  ...

1..2
# tests 2
# pass  0
# fail  2
`;
    const [two, map] = tapParser.parse(output);
    expect(two).toMatchObject({ test: "two deep object with indent > two", line: 73 });
    expect(two?.message).toBe("operator: equal");
    // The assertion's words stay in its name (`Map > Map containing a Map …`); the message adds the comparison.
    expect(map?.message).toBe("operator: equal");
  });

  it("adds tape's operator to a default message, which the assertion's name already says (path-browserify)", () => {
    const output = `TAP version 13
# path.posix.extname
not ok 132 should be equal
  ---
    operator: equal
    expected: 'js'
    actual:   '.js'
    at: <anonymous> (/work/path-browserify/test/test-path-extname.js:56:7)
    stack: |-
      Error: should be equal
          at Test.assert [as _assert] (/work/path-browserify/node_modules/tape/lib/test.js:228:54)
  ...

1..1
# tests 1
# pass  0
# fail  1
`;
    expect(tapParser.parse(output)).toMatchObject([
      {
        test: "path.posix.extname > should be equal",
        expected: "'js'",
        received: "'.js'",
        message: "Error: should be equal (operator: equal)",
      },
    ]);
  });
});

/** One node-tap check of ini's `parse(stringify(x))` loop whose `key` came back a string. */
function iniCheck(number: number, key: string): string {
  return `        not ok ${number} - should be equivalent
          ---
          diff: |
            --- expected
            +++ actual
            @@ -1,3 +1,3 @@
             Null Object {
            -  "${key}": true,
            +  "${key}": "true",
             }
          at:
            line: 17
            column: 7
            file: test/bar.js
            type: Test
          ...
`;
}
