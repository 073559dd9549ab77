import { describe, expect, it } from "vitest";
import { mochaParser } from "./mocha.js";

const spec = `
  login
    1) returns a numeric userId
    ✔ passes

  1 passing (9ms)
  1 failing

  1) login
       returns a numeric userId:
     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

'123' !== 123

      at Context.<anonymous> (file:///p/test/token.test.js:6:12)
`;

/** Mocha's pretty-printed JSON report with one failure. */
function report(err: Record<string, unknown>): string {
  const failure = { title: "t", fullTitle: "login t", file: "/p/test/a.test.js", err };
  return `noise\n${JSON.stringify({ stats: { failures: 1 }, failures: [failure] }, null, 2)}\n`;
}

describe("mochaParser", () => {
  it("reads the spec reporter: suite path, node:assert's `'123' !== 123`, first user frame", () => {
    expect(mochaParser.detect(spec)).toBe(true);
    expect(mochaParser.parse(spec)).toEqual([
      {
        test: "login > returns a numeric userId",
        file: "/p/test/token.test.js",
        line: 6,
        expected: "123",
        received: "'123'",
        message:
          "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: '123' !== 123",
      },
    ]);
  });

  it("keeps the JSON report's typed values as literals and its printed strings as printed", () => {
    const stack = "AssertionError: x\n    at Context.<anonymous> (file:///p/test/a.test.js:3:9)";
    const [typed] = mochaParser.parse(report({ stack, actual: "123", expected: 123 }));
    expect(typed).toMatchObject({ test: "login t", expected: "123", received: '"123"', line: 3 });
    const [printed] = mochaParser.parse(report({ stack, actual: "3", expected: "4" }));
    expect(printed).toMatchObject({ expected: "4", received: "3" });
    const [dropped] = mochaParser.parse(report({ stack, expected: "admin", actual: undefined }));
    expect(dropped).toMatchObject({ expected: '"admin"', received: "undefined" });
  });

  it("reads a spec file that did not load as a failure of that file", () => {
    const crash =
      "\n Exception during run: SyntaxError[ @/p/test/broken.test.js ]: Unexpected token ')'\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)\n";
    expect(mochaParser.detect(crash)).toBe(true);
    expect(mochaParser.parse(crash)).toEqual([
      {
        test: "/p/test/broken.test.js",
        file: "/p/test/broken.test.js",
        line: null,
        expected: null,
        received: null,
        message: "SyntaxError[ @/p/test/broken.test.js ]: Unexpected token ')'",
      },
    ]);
  });

  it("reads node-tap's spec reporter: one-line titles, tap's `-` wanted and `+` found", () => {
    const tap = [
      "test/inc.js",
      "  inc",
      "    1) inc(1.2.3, minor) === 1.3.0",
      "",
      "  3 passing (6s)",
      "  1 failing",
      "",
      "  1) test/inc.js inc inc(1.2.3, minor) === 1.3.0:",
      "",
      "      Error: inc(1.2.3, minor) === 1.3.0",
      "      + expected - actual",
      "",
      "      -1.3.0",
      "      +1.3.3",
      "      ",
      "      at test/inc.js:12:7",
      "      at Test.<anonymous> (test/inc.js:9:14)",
      "      at Object.<anonymous> (test/inc.js:8:1)",
      "",
    ].join("\n");
    expect(mochaParser.parse(tap)).toEqual([
      {
        test: "test/inc.js inc inc(1.2.3, minor) === 1.3.0",
        file: "test/inc.js",
        line: 12,
        expected: "1.3.0",
        received: "1.3.3",
        // The outermost frame is the module's top level, where tests are declared: no test frame.
        message: "Error: inc(1.2.3, minor) === 1.3.0",
      },
    ]);
    expect(mochaParser.reportedFailures?.(tap)).toBe(1);
  });

  it("reads an Uncaught error as the error, and a diff that only reorders as the pair chai states (async)", () => {
    const output = `
  0 passing (5ms)
  1 failing

  1) async function support
       should handle async functions in sortBy:

      Uncaught AssertionError: expected [ 3, 2, 1 ] to deeply equal [ 1, 2, 3 ]
      + expected - actual

       [
      +  1
      +  2
         3
      -  2
      -  1
       ]
      
      at /work/async/test/es2017/asyncFunctions.js:256:31
      at /work/async/lib/sortBy.js:164:9
`;
    expect(mochaParser.parse(output)).toEqual([
      {
        test: "async function support > should handle async functions in sortBy",
        file: "/work/async/test/es2017/asyncFunctions.js",
        line: 256,
        expected: "[ 1, 2, 3 ]",
        received: "[ 3, 2, 1 ]",
        message: "AssertionError: expected [ 3, 2, 1 ] to deeply equal [ 1, 2, 3 ]",
      },
    ]);
  });

  it("reads fast-check's `Got error:` as the error that follows, not as a value (js-yaml)", () => {
    const output = [
      "  1 failing",
      "",
      "  1) Properties",
      "       Load from dumped should be the original object:",
      "     Property failed after 2 tests",
      '{ seed: 2085892604, path: "1:1:2", endOnFailure: true }',
      'Counterexample: [{"":[false]}]',
      "Shrunk 9 time(s)",
      "Got error: AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
      "+ actual - expected",
      "",
      "  {",
      "    '': [",
      "+     'false'",
      "-     false",
      "    ]",
      "  }",
      "",
      "Stack trace: AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
      "    at /ci/js-yaml/test/25-dumper-fuzzy.js:44:16",
      "    at Property.predicate (/ci/js-yaml/node_modules/fast-check/lib/check/property/Property.generated.js:14:291)",
      "    at Context.<anonymous> (/ci/js-yaml/test/25-dumper-fuzzy.js:38:8)",
      "",
    ].join("\n");
    expect(mochaParser.parse(output)).toMatchObject([
      {
        test: "Properties > Load from dumped should be the original object",
        file: "/ci/js-yaml/test/25-dumper-fuzzy.js",
        line: 44,
        expected: "false",
        received: "'false'",
      },
    ]);
  });

  it("places a plain Error thrown by a test helper at the test's call, a crash where it threw", () => {
    const dot = [
      "  314 passing (2s)",
      "  2 failing",
      "",
      "  1) Validators",
      "       should validate ports:",
      '     Error: validator.isPort("65535") failed but should have passed',
      "      at forEach (test/testFunctions.js:41:15)",
      "      at Array.forEach (<anonymous>)",
      "      at test (test/testFunctions.js:32:19)",
      "      at Context.<anonymous> (test/validators.test.js:3214:9)",
      "",
      "  2) Validators",
      "       should validate floats:",
      "     TypeError: Cannot read properties of undefined (reading 'locale')",
      "      at isFloat (src/lib/isFloat.js:8:40)",
      "      at forEach (test/testFunctions.js:35:39)",
      "      at Array.forEach (<anonymous>)",
      "      at test (test/testFunctions.js:32:19)",
      "      at Context.<anonymous> (test/validators.test.js:4634:9)",
      "",
    ].join("\n");
    expect(mochaParser.parse(dot)).toMatchObject([
      { test: "Validators > should validate ports", file: "test/validators.test.js", line: 3214 },
      { test: "Validators > should validate floats", file: "src/lib/isFloat.js", line: 8 },
    ]);
  });

  it("reads a suite whose own title ends with a colon as a suite, the deepest line as the test (picomatch)", () => {
    const output = `
  1 failing

  1) posix classes
       POSIX: From the test suite for the POSIX.2 (BRE) pattern matching code:
         should match hexadecimal digits:

      AssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value:

  assert(isMatch('1', '[[:xdigit:]]'))

      at Context.<anonymous> (test/posix-classes.js:196:7)

  2) picomatch
       matching:
         should match file names:
     TypeError: format is not a function
      at picomatch.test (lib/picomatch.js:140:24)
      at Context.<anonymous> (test/api.picomatch.js:134:14)
`;
    expect(mochaParser.parse(output).map((failure) => failure.test)).toEqual([
      "posix classes > POSIX: From the test suite for the POSIX.2 (BRE) pattern matching code: > should match hexadecimal digits",
      "picomatch > matching: > should match file names",
    ]);
  });

  it("yields nothing for an all-passing run", () => {
    expect(mochaParser.parse("\n  a\n    ✔ works\n\n  1 passing (3ms)\n")).toEqual([]);
  });

  it("reads a moved element's diff as the whole sides, never a pair that reads the same (negotiator)", () => {
    const output = `

  244 passing (52ms)
  3 pending
  9 failing


  2) negotiator.encodings(array)
       when Accept-Encoding: gzip
         should return client-preferred encodings:

      AssertionError [ERR_ASSERTION]: Expected values to be loosely deep-equal:

[
  'identity',
  'gzip'
]

should loosely deep-equal

[
  'gzip',
  'identity'
]
      + expected - actual

       [
      -  "identity"
         "gzip"
      +  "identity"
       ]
      
      at Context.<anonymous> (test/encoding.js:405:14)
      at process.processImmediate (node:internal/timers:483:21)
`;
    expect(mochaParser.parse(output)).toEqual([
      expect.objectContaining({
        test: "negotiator.encodings(array) > when Accept-Encoding: gzip > should return client-preferred encodings",
        file: "test/encoding.js",
        line: 405,
        expected: '[\n"gzip"\n"identity"\n]',
        received: '[\n"identity"\n"gzip"\n]',
        message: "AssertionError [ERR_ASSERTION]: Expected values to be loosely deep-equal:",
      }),
    ]);
  });

  it("reads node:assert's loose comparison, each value on its own line around `should loosely deep-equal` (punycode.js)", () => {
    const output = `  14 failing

  1) punycode.encode
       a single non-ASCII character:

      AssertionError [ERR_ASSERTION]: Expected values to be loosely deep-equal:

'-tda'

should loosely deep-equal

'tda'
      + expected - actual

      --tda
      +tda
      
      at Context.<anonymous> (tests/tests.js:315:11)

`;
    expect(mochaParser.parse(output)).toMatchObject([
      {
        line: 315,
        expected: "'tda'",
        received: "'-tda'",
        message: "AssertionError [ERR_ASSERTION]: Expected values to be loosely deep-equal",
      },
    ]);
  });
});
