import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Failure } from "../feedback.js";
import { extractFailures, reportedFailures } from "./general-extractor.js";
import cargoBacktraceColor from "../test-fixtures/cargo-backtrace-color.txt?raw";
import cargoBasic from "../test-fixtures/cargo-basic.txt?raw";
import cargoQuiet from "../test-fixtures/cargo-quiet.txt?raw";
import nodeTestSpecColor from "../test-fixtures/node-test-spec-color.txt?raw";
import nodeTestSpec from "../test-fixtures/node-test-spec.txt?raw";
import nodeTestTap from "../test-fixtures/node-test-tap.txt?raw";
import pytestBasicColor from "../test-fixtures/pytest-basic-color.txt?raw";
import pytestBasic from "../test-fixtures/pytest-basic.txt?raw";
import pytestShort from "../test-fixtures/pytest-short.txt?raw";
import unittestBasic from "../test-fixtures/unittest-basic.txt?raw";
import vitestBasicColor from "../test-fixtures/vitest-basic-color.txt?raw";
import vitestBasic from "../test-fixtures/vitest-basic.txt?raw";
import { failureOf } from "../failure-of.js";

describe("extractFailures: the seed", () => {
  it("reads the seed's FAIL header with Expected/Received", () => {
    const output =
      "FAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n";
    expect(extractFailures(output)).toEqual([
      failureOf({
        file: "src/auth/login.test.ts",
        expected: "token to contain userId",
        received: "undefined",
        message: "Expected: token to contain userId",
      }),
    ]);
  });
});

describe("extractFailures: Vitest 4 (captured)", () => {
  const expected: Failure[] = [
    failureOf({
      test: "login > payload > contains the numeric userId",
      file: "src/auth/login.test.ts",
      line: 10,
      expected: "123",
      received: '"123"',
      message: "AssertionError: expected '123' to be 123 // Object.is equality",
    }),
    failureOf({
      test: "login > payload > matches the expected object",
      file: "src/auth/login.test.ts",
      line: 13,
      expected: '"userId": 123,',
      received: '"userId": "123",',
      message:
        "AssertionError: expected { token: 'abc', userId: '123' } to deeply equal { token: 'abc', userId: 123 }",
    }),
    failureOf({
      test: "login > has a userId when no user",
      file: "src/auth/login.test.ts",
      line: 17,
      message: "AssertionError: expected undefined to be defined",
    }),
    failureOf({
      test: "parseId > parses empty",
      file: "src/auth/login.ts",
      line: 5,
      message: "TypeError: empty id",
      // Thrown in the code under test: the test's own frame is kept beside it.
      testLocation: { file: "src/auth/login.test.ts", line: 23 },
    }),
    failureOf({
      test: "parseId > sums",
      file: "src/auth/login.test.ts",
      line: 26,
      expected: "3",
      received: "2",
      message: "AssertionError: expected 2 to be 3 // Object.is equality",
    }),
    failureOf({
      test: "strings differ",
      file: "src/auth/other.test.ts",
      line: 3,
      expected: '"hello there"',
      received: '"hello world"',
      message: "AssertionError: expected 'hello world' to be 'hello there' // Object.is equality",
    }),
  ];

  it("reads every failing test with its suite path, user frame and values", () => {
    expect(extractFailures(vitestBasic)).toEqual(expected);
  });

  it("reads the coloured output the same way", () => {
    expect(extractFailures(vitestBasicColor)).toEqual(expected);
  });

  it('keeps quotes exactly as printed: the string "123" is not the number 123', () => {
    const [first] = extractFailures(vitestBasic);
    expect(first?.expected).toBe("123");
    expect(first?.received).toBe('"123"');
  });
});

describe("extractFailures: node:test (captured)", () => {
  const root = "/tmp/loopgate-fixtures/node-test";
  const facts = [
    {
      test: "makeToken > uses a numeric userId",
      file: `${root}/test/token.test.js`,
      line: 10,
      expected: "123",
      received: "'123'",
    },
    {
      test: "makeToken > matches the payload",
      file: `${root}/test/token.test.js`,
      line: 13,
      expected: "userId: 7",
      received: "userId: '7'",
    },
    { test: "explodes", file: `${root}/lib.js`, line: 5, expected: null, received: null },
    {
      test: "message equality",
      file: `${root}/test/token.test.js`,
      line: 22,
      expected: "'hello there'",
      received: "'hello world'",
    },
  ];
  const withoutMessages = (failures: readonly Failure[]): unknown[] =>
    failures.map(({ test, file, line, expected, received }) => ({
      test,
      file,
      line,
      expected,
      received,
    }));

  it.each([
    ["spec", nodeTestSpec],
    ["spec, coloured", nodeTestSpecColor],
    ["tap", nodeTestTap],
  ])("reads the %s reporter, once per test despite the recap", (_reporter, output) => {
    expect(withoutMessages(extractFailures(output))).toEqual(facts);
  });

  it("keeps the error's first line, and node:assert's words after its colon", () => {
    expect(extractFailures(nodeTestSpec).map((f) => f.message)).toEqual([
      "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: '123' !== 123",
      "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
      "RangeError [Error]: value out of range: 42",
      "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    ]);
    expect(extractFailures(nodeTestTap).map((f) => f.message)).toEqual([
      "AssertionError: Expected values to be strictly equal: '123' !== 123",
      "AssertionError: Expected values to be strictly deep-equal:",
      "RangeError: value out of range: 42",
      "AssertionError: Expected values to be strictly equal:",
    ]);
  });

  it("drops the suite that failed only because its tests did", () => {
    expect(extractFailures(nodeTestTap).map((f) => f.test)).not.toContain("makeToken");
    expect(extractFailures(nodeTestSpec).map((f) => f.test)).not.toContain("makeToken");
  });
});

describe("extractFailures: pytest (captured)", () => {
  const expected: Failure[] = [
    failureOf({
      test: "test_numeric_user_id",
      file: "tests/test_token.py",
      line: 13,
      expected: "123",
      received: "'123'",
      message: "AssertionError: assert '123' == 123",
    }),
    failureOf({
      test: "test_payload",
      file: "tests/test_token.py",
      line: 17,
      expected: "{'user_id': 7}",
      received: "{'user_id': '7'}",
      message: "AssertionError: assert {'user_id': '7'} == {'user_id': 7}",
    }),
    failureOf({
      test: "TestParse::test_int",
      file: "tests/test_token.py",
      line: 22,
      expected: "14",
      received: "(12 + 1)",
      message: "AssertionError: assert (12 + 1) == 14",
    }),
    failureOf({
      test: "TestParse::test_raises",
      file: "tests/test_token.py",
      line: 25,
      message: "ValueError: bad value: 42",
    }),
    failureOf({
      test: "test_param[2-3]",
      file: "tests/test_token.py",
      line: 30,
      expected: "3",
      received: "2",
      message: "assert 2 == 3",
    }),
  ];

  it.each([
    ["the long traceback", pytestBasic],
    ["the coloured long traceback", pytestBasicColor],
    ["-q --tb=short", pytestShort],
  ])("reads %s, merging each section with its FAILED line", (_mode, output) => {
    expect(extractFailures(output)).toEqual(expected);
  });

  it("reads the short summary alone when the tracebacks are off", () => {
    const output = [
      "FAILED tests/test_token.py::TestParse::test_int - AssertionError: assert (12 ...",
      "FAILED tests/test_token.py::test_param[2-3] - assert 2 == 3",
      "ERROR tests/test_db.py - ModuleNotFoundError: No module named 'psycopg'",
      "==== 2 failed, 1 error in 0.12s ====",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "TestParse::test_int",
        file: "tests/test_token.py",
        message: "AssertionError: assert (12 ...",
      }),
      failureOf({
        test: "test_param[2-3]",
        file: "tests/test_token.py",
        expected: "3",
        received: "2",
        message: "assert 2 == 3",
      }),
      failureOf({
        file: "tests/test_db.py",
        message: "ModuleNotFoundError: No module named 'psycopg'",
      }),
    ]);
  });
});

describe("extractFailures: unittest (captured)", () => {
  it("reads FAIL/ERROR headers and the traceback's user frame", () => {
    expect(extractFailures(unittestBasic)).toEqual([
      failureOf({
        test: "test_token.TokenTest.test_raises",
        file: "/tmp/loopgate-fixtures/unittest/test_token.py",
        line: 16,
        message: "ValueError: bad value: 42",
      }),
      failureOf({
        test: "test_token.TokenTest.test_numeric_user_id",
        file: "/tmp/loopgate-fixtures/unittest/test_token.py",
        line: 13,
        message: "AssertionError: '123' != 123",
      }),
    ]);
  });
});

describe("extractFailures: cargo test (captured)", () => {
  const expected: Failure[] = [
    failureOf({
      test: "tests::not_equal",
      file: "src/lib.rs",
      line: 38,
      message: "assertion `left != right` failed (left: 2, right: 2)",
    }),
    failureOf({
      test: "tests::numeric_user_id",
      file: "src/lib.rs",
      line: 23,
      expected: '"124"',
      received: '"123"',
      message: "assertion `left == right` failed",
    }),
    failureOf({
      test: "tests::panics_in_lib",
      file: "src/lib.rs",
      line: 7,
      message: "value out of range: 42",
    }),
    failureOf({
      test: "tests::sums",
      file: "src/lib.rs",
      line: 28,
      expected: "3",
      received: "2",
      message: "assertion `left == right` failed: math is broken",
    }),
  ];

  it.each([
    ["default output", cargoBasic],
    ["quiet output", cargoQuiet],
    ["coloured output with backtraces", cargoBacktraceColor],
  ])(
    "reads the %s: panic location, message, left as received and right as expected",
    (_mode, output) => {
      expect(extractFailures(output)).toEqual(expected);
    },
  );

  it("reads the pre-1.73 inline panic format", () => {
    const output = [
      "---- tests::adds stdout ----",
      "thread 'tests::adds' panicked at 'assertion failed: `(left == right)`",
      "  left: `2`,",
      " right: `3`', src/lib.rs:10:5",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "tests::adds",
        file: "src/lib.rs",
        line: 10,
        expected: "`3`",
        received: "`2`",
        message: "assertion failed: `(left == right)`",
      }),
    ]);
  });
});

describe("extractFailures: Jest (hand-written from Jest 29's format; Jest is not installed here)", () => {
  const jest = [
    "FAIL src/auth/login.test.ts (5.123 s)",
    "  login",
    "    ✓ issues a token (3 ms)",
    "    ✕ returns a token with the numeric userId (5 ms)",
    "    ✕ builds the payload (2 ms)",
    "",
    "  ● login › returns a token with the numeric userId",
    "",
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    "    Expected: 123",
    '    Received: "123"',
    "",
    "      10 |   it('returns a token with the numeric userId', () => {",
    "      11 |     const token = login({ id: 123 });",
    "    > 12 |     expect(token.userId).toBe(123);",
    "         |                          ^",
    "      13 |   });",
    "",
    "      at Object.<anonymous> (src/auth/login.test.ts:12:26)",
    "",
    "  ● login › builds the payload",
    "",
    "    expect(received).toEqual(expected) // deep equality",
    "",
    "    - Expected  - 1",
    "    + Received  + 1",
    "",
    "      Object {",
    '    -   "userId": 123,',
    '    +   "userId": "123",',
    "      }",
    "",
    "      at Object.<anonymous> (src/auth/login.test.ts:20:30)",
    "      at processTicksAndRejections (node:internal/process/task_queues:95:5)",
    "",
    "  console.error",
    "    Error: this is logged by the code under test",
    "",
    "      at log (src/auth/logger.ts:3:11)",
    "",
    "PASS src/other.test.ts",
    "",
    "Test Suites: 1 failed, 1 passed, 2 total",
    "Tests:       2 failed, 3 passed, 5 total",
    "Snapshots:   0 total",
    "Time:        1.234 s",
    "Ran all test suites.",
  ].join("\n");

  it("reads ● blocks with the matcher hint, values, diff and first user frame", () => {
    expect(extractFailures(jest)).toEqual([
      failureOf({
        test: "login › returns a token with the numeric userId",
        file: "src/auth/login.test.ts",
        line: 12,
        expected: "123",
        received: '"123"',
        message: "expect(received).toBe(expected) // Object.is equality",
      }),
      failureOf({
        test: "login › builds the payload",
        file: "src/auth/login.test.ts",
        line: 20,
        expected: '"userId": 123,',
        received: '"userId": "123",',
        message: "expect(received).toEqual(expected) // deep equality",
      }),
    ]);
  });

  it("reads a diff whose changed lines are blank as the whole sides (sql-formatter)", () => {
    // The shape of fixtures/real-world/jest/sql-formatter-lines-between-token-start.
    const output = [
      "  ● PostgreSqlFormatter › formats ALTER TABLE",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "",
      "    - Expected  - 2",
      "    + Received  + 0",
      "",
      "      ALTER TABLE t",
      "      SET DEFAULT 5;",
      "    -",
      "      ALTER TABLE t",
      "      DROP DEFAULT;",
      "    -",
      "      ALTER TABLE t",
      "",
      "      at Object.<anonymous> (test/postgresql.ts:78:7)",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "PostgreSqlFormatter › formats ALTER TABLE",
        file: "test/postgresql.ts",
        line: 78,
        expected: "ALTER TABLE t\nSET DEFAULT 5;\n\nALTER TABLE t\nDROP DEFAULT;\n\nALTER TABLE t",
        received: "ALTER TABLE t\nSET DEFAULT 5;\nALTER TABLE t\nDROP DEFAULT;\nALTER TABLE t",
        message: "expect(received).toBe(expected) // Object.is equality",
      }),
    ]);
  });

  it("reads a suite that failed to run", () => {
    const output = [
      "FAIL src/broken.test.ts",
      "  ● Test suite failed to run",
      "",
      "    Cannot find module './missing' from 'src/broken.test.ts'",
      "",
      "    SyntaxError: Unexpected token (3:7)",
      "      at Runtime.createScriptFromCode (node_modules/jest-runtime/build/index.js:1505:14)",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        file: "src/broken.test.ts",
        message: "Cannot find module './missing' from 'src/broken.test.ts'",
      }),
    ]);
  });
});

describe("extractFailures: Mocha (hand-written from Mocha 10's spec reporter)", () => {
  it("reads the numbered failure, its multi-line title and the + expected - actual diff", () => {
    const output = [
      "",
      "  login",
      "    ✔ issues a token",
      "    1) returns a numeric userId",
      "",
      "",
      "  1 passing (6ms)",
      "  1 failing",
      "",
      "  1) login",
      "       returns a numeric userId:",
      "",
      "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
      "",
      "'123' !== 123",
      "",
      "      + expected - actual",
      "",
      "      -'123'",
      "      +123",
      "      ",
      "      at Context.<anonymous> (test/login.spec.js:9:12)",
      "      at process.processImmediate (node:internal/timers:478:21)",
      "",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "login > returns a numeric userId",
        file: "test/login.spec.js",
        line: 9,
        expected: "123",
        received: "'123'",
        message:
          "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: '123' !== 123",
      }),
    ]);
  });
});

describe("extractFailures: go test (hand-written from Go 1.22's format; Go is not installed here)", () => {
  it("reads -v output, where the log lines come before --- FAIL", () => {
    const output = [
      "=== RUN   TestAdd",
      "    add_test.go:9: Add(1, 1) = 2; want 3",
      "--- FAIL: TestAdd (0.00s)",
      "=== RUN   TestTable",
      "=== RUN   TestTable/negative",
      "    add_test.go:21: got -1, want 1",
      "=== RUN   TestTable/zero",
      "--- FAIL: TestTable (0.00s)",
      "    --- FAIL: TestTable/negative (0.00s)",
      "    --- PASS: TestTable/zero (0.00s)",
      "=== RUN   TestOK",
      "    add_test.go:40: just logging",
      "--- PASS: TestOK (0.00s)",
      "FAIL",
      "FAIL\texample.com/calc\t0.002s",
      "FAIL",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "TestAdd",
        file: "add_test.go",
        line: 9,
        expected: "3",
        received: "2",
        message: "Add(1, 1) = 2; want 3",
      }),
      failureOf({
        test: "TestTable/negative",
        file: "add_test.go",
        line: 21,
        expected: "1",
        received: "-1",
        message: "got -1, want 1",
      }),
    ]);
  });

  it("reads plain output, where the log lines follow --- FAIL", () => {
    const output = [
      "--- FAIL: TestAdd (0.00s)",
      "    add_test.go:9: expected 3, got 2",
      "FAIL",
      "exit status 1",
      "FAIL\texample.com/calc\t0.002s",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "TestAdd",
        file: "add_test.go",
        line: 9,
        expected: "3",
        received: "2",
        message: "expected 3, got 2",
      }),
    ]);
  });

  it("reads testify's expected/actual block", () => {
    const output = [
      "--- FAIL: TestToken (0.00s)",
      "    token_test.go:14: ",
      "        \tError Trace:\t/home/u/proj/token_test.go:14",
      "        \tError:      \tNot equal: ",
      "        \t            \texpected: 123",
      '        \t            \tactual  : "123"',
      "        \tTest:       \tTestToken",
    ].join("\n");
    const [only] = extractFailures(output);
    expect(only).toMatchObject({ test: "TestToken", file: "token_test.go", line: 14 });
    expect(only?.expected).toBe("123");
    expect(only?.received).toBe('"123"');
  });
});

describe("extractFailures: TAP producers", () => {
  it("reads node-tap's found/wanted and at: mapping", () => {
    const output = [
      "TAP version 14",
      "# Subtest: token",
      "    not ok 1 - should be equal",
      "      ---",
      "      found: '123'",
      "      wanted: 123",
      "      compare: ===",
      "      at:",
      "        fileName: test/token.js",
      "        lineNumber: 7",
      "        columnNumber: 5",
      "      source: |",
      "        t.equal(token.userId, 123)",
      "      ...",
      "",
      "    1..1",
      "not ok 1 - token # time=12ms",
      "1..1",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "token > should be equal",
        file: "test/token.js",
        line: 7,
        expected: "123",
        received: "'123'",
        message: "found: '123'",
      }),
    ]);
  });

  it("reads plain TAP with an inline at:, and skips TODO failures", () => {
    const output = [
      "TAP version 13",
      "ok 1 - adds",
      "not ok 2 - multiplies",
      "  ---",
      "  message: 'should be equal'",
      "  severity: fail",
      "  expected: 6",
      "  actual: 5",
      "  at: test/math.js:12:3",
      "  ...",
      "not ok 3 - divides # TODO not written yet",
      "1..3",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        test: "multiplies",
        file: "test/math.js",
        line: 12,
        expected: "6",
        received: "5",
        message: "should be equal",
      }),
    ]);
  });
});

describe("extractFailures: outputs without a known structure", () => {
  it("reads an uncaught error and its first user frame", () => {
    const output = [
      "> app@1.0.0 test",
      "> node scripts/check.js",
      "",
      "/home/u/app/scripts/check.js:4",
      "TypeError: Cannot read properties of undefined (reading 'userId')",
      "    at check (/home/u/app/scripts/check.js:4:20)",
      "    at Module._compile (node:internal/modules/cjs/loader:1256:14)",
    ].join("\n");
    expect(extractFailures(output)).toEqual([
      failureOf({
        file: "/home/u/app/scripts/check.js",
        line: 4,
        message: "TypeError: Cannot read properties of undefined (reading 'userId')",
      }),
    ]);
  });

  it("prefers named tests over stray errors from captured console output", () => {
    const output = [
      "stderr | src/a.test.ts > works",
      "Error: logged, not thrown",
      "",
      " FAIL  src/a.test.ts > adds",
      "AssertionError: expected 2 to be 3 // Object.is equality",
    ].join("\n");
    expect(extractFailures(output).map((f) => f.test)).toEqual(["adds"]);
  });

  it("falls back to the informative lines", () => {
    const output =
      "building...\ncompiled 3 files\nsegmentation fault: assert failed in worker\ndone\n";
    expect(extractFailures(output)).toEqual([
      failureOf({ message: "segmentation fault: assert failed in worker" }),
    ]);
  });

  it("falls back to the last line when no line says what failed", () => {
    expect(extractFailures("step one\nstep two\nKilled\n\n")).toEqual([
      failureOf({ message: "Killed" }),
    ]);
  });

  it("keeps a path:line at the start of a fallback line", () => {
    expect(extractFailures("src/a.c:12: fatal: oops, this failed")).toEqual([
      failureOf({ file: "src/a.c", line: 12, message: "fatal: oops, this failed" }),
    ]);
  });

  it("returns nothing for empty or blank output", () => {
    expect(extractFailures("")).toEqual([]);
    expect(extractFailures(" \n\t\n\x1b[0m\n")).toEqual([]);
  });

  it("drops passing tests, timings and summary banners", () => {
    const output = [
      " ✓ src/a.test.ts (3 tests) 5ms",
      " Test Files  1 passed (1)",
      "      Tests  3 passed (3)",
      "   Duration  300ms",
    ].join("\n");
    const failures = extractFailures(output);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toBe("Duration  300ms");
  });
});

describe("extractFailures: deduplication", () => {
  it("merges identical reports of one failure", () => {
    const block =
      " FAIL  src/a.test.ts > adds\nAssertionError: expected 2 to be 3 // Object.is equality\n";
    expect(extractFailures(block + block)).toHaveLength(1);
  });

  it("keeps same-named tests in different files apart", () => {
    const output = [
      " FAIL  src/a.test.ts > adds",
      "AssertionError: expected 2 to be 3",
      " FAIL  src/b.test.ts > adds",
      "AssertionError: expected 2 to be 3",
    ].join("\n");
    expect(extractFailures(output).map((f) => f.file)).toEqual(["src/a.test.ts", "src/b.test.ts"]);
  });

  it("keeps apart two tests whose names end alike, though the progress tree named both alike", () => {
    const output = [
      "  req",
      "    .host",
      "      1) works",
      "    .hostname",
      "      2) works",
      "",
      "  0 passing (5ms)",
      "  2 failing",
      "",
      "  1) req",
      "       .host",
      "         works:",
      "     TypeError: v.strip is not a function",
      "      at compileTrust (lib/utils.js:210:8)",
      "      at Context.<anonymous> (test/req.host.js:93:13)",
      "",
      "  2) req",
      "       .hostname",
      "         works:",
      "     TypeError: v.strip is not a function",
      "      at compileTrust (lib/utils.js:210:8)",
      "      at Context.<anonymous> (test/req.hostname.js:93:13)",
    ].join("\n");
    expect(extractFailures(output).map((f) => [f.test, f.testLocation?.file])).toEqual([
      ["req > .host > works", "test/req.host.js"],
      ["req > .hostname > works", "test/req.hostname.js"],
    ]);
  });

  it("never fails a todo or skipped test, nor hands its error to a neighbour", () => {
    const spec = [
      "✖ applies coupons (0.3ms) # coupons are not built yet",
      "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
      "",
      "  0 !== 1",
      "",
      "✖ rounds totals (0.6ms) # TODO",
      "  AssertionError [ERR_ASSERTION]: boom",
      "﹣ charges the card (0.2ms) # SKIP",
      "ℹ tests 3",
    ].join("\n");
    expect(reportedFailures(spec)).toEqual([]);
    const tap = [
      "TAP version 13",
      "not ok 1 - applies coupons # TODO later",
      "  ---",
      "  error: 'Expected values to be strictly equal'",
      "  expected: 1",
      "  actual: 0",
      "  ...",
      "1..1",
    ].join("\n");
    expect(reportedFailures(tap)).toEqual([]);
  });

  it("keeps two failed assertions of one test three lines apart", () => {
    const assertion = (line: number): string =>
      [
        "not ok 1 should be strictly equal",
        "  ---",
        "    operator: equal",
        "    expected: 3",
        "    actual:   2",
        `    at: Test.<anonymous> (file:///p/test/a.test.js:${line}:5)`,
        "  ...",
      ].join("\n");
    const output = ["TAP version 13", "# adds", assertion(5), assertion(8), "1..2"].join("\n");
    expect(extractFailures(output).map((f) => [f.file, f.line])).toEqual([
      ["/p/test/a.test.js", 5],
      ["/p/test/a.test.js", 8],
    ]);
  });
});

describe("extractFailures: hostile input", () => {
  it(
    "reads a 10 MB single line without throwing and keeps a bounded message",
    { timeout: 60_000 },
    () => {
      const huge = "Error: " + "x".repeat(10 * 1024 * 1024);
      const [only] = extractFailures(huge);
      expect(only?.message.startsWith("Error: xxx")).toBe(true);
      expect(only?.message.length).toBeLessThanOrEqual(1000);
    },
  );

  it("reads the seed after a 10 MB line of noise", { timeout: 60_000 }, () => {
    const output = `${"ab ".repeat(3_500_000)}\nFAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n`;
    expect(extractFailures(output)).toEqual([
      failureOf({
        file: "src/auth/login.test.ts",
        expected: "token to contain userId",
        received: "undefined",
        message: "Expected: token to contain userId",
      }),
    ]);
  });

  it("ignores NUL bytes", () => {
    const output = "FAIL\0 src/a.test.ts\0\nExp\0ected: 1\nReceived: 2\0\0\0";
    expect(extractFailures(output)).toEqual([
      failureOf({ file: "src/a.test.ts", expected: "1", received: "2", message: "Expected: 1" }),
    ]);
  });

  it("survives an escape-sequence storm", { timeout: 60_000 }, () => {
    const storm =
      "\x1b[".repeat(1_000_000) +
      "\n" +
      "\x1b]".repeat(500_000) +
      "\n\x1b[31mFAIL src/a.test.ts > adds\x1b[0m\nAssertionError: expected 2 to be 3";
    expect(extractFailures(storm)).toEqual([
      failureOf({
        test: "adds",
        file: "src/a.test.ts",
        expected: "3",
        received: "2",
        message: "AssertionError: expected 2 to be 3",
      }),
    ]);
  });

  it("survives pathological lines for every pattern", { timeout: 60_000 }, () => {
    const lines = [
      "a.".repeat(2_000) + ":",
      "FAIL " + "x > ".repeat(1_000),
      "expected " + " to be ".repeat(500),
      "got ".repeat(1_000) + "want",
      "--- FAIL: " + "T/".repeat(1_500),
      "E" + " ".repeat(3_990) + "x",
      "thread '" + "'".repeat(3_000) + " panicked at ",
      "1) " + "x:".repeat(1_900),
      "at " + "(".repeat(3_000),
      "❯ " + "a:1:".repeat(900),
      "_".repeat(3_999),
    ];
    const output = Array.from({ length: 200 }, () => lines.join("\n")).join("\n");
    expect(Array.isArray(extractFailures(output))).toBe(true);
  });

  it("handles a hundred thousand failing tests", { timeout: 60_000 }, () => {
    const output = Array.from(
      { length: 100_000 },
      (_, index) => `  × test number ${index} 1ms`,
    ).join("\n");
    const failures = extractFailures(output);
    expect(failures).toHaveLength(100_000);
    expect(failures[99_999]?.test).toBe("test number 99999");
  });
});

describe("extractFailures (properties)", () => {
  const plainFixtures = [
    vitestBasic,
    nodeTestSpec,
    nodeTestTap,
    pytestBasic,
    cargoBasic,
    unittestBasic,
  ];
  const sequences = fc.constantFrom(
    "\x1b[0m",
    "\x1b[31m",
    "\x1b[1;38;5;196m",
    "\x1b[2K",
    "\x1b[?25l",
    "\x1b]8;;https://example.com\x07",
    "\x1b]0;title\x1b\\",
    "\x1b(B",
    "\x00",
    "\x07",
  );

  it("finds the same failures in ANSI-wrapped output as in plain output", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...plainFixtures),
        fc.array(fc.tuple(fc.nat(), sequences), { maxLength: 40 }),
        (plain, insertions) => {
          // Positions in the plain text, so no sequence lands inside another.
          const cuts = insertions
            .map(([position, sequence]) => ({ at: position % (plain.length + 1), sequence }))
            .sort((a, b) => a.at - b.at);
          let wrapped = "";
          let from = 0;
          for (const { at, sequence } of cuts) {
            wrapped += plain.slice(from, at) + sequence;
            from = at;
          }
          wrapped += plain.slice(from);
          expect(extractFailures(wrapped)).toEqual(extractFailures(plain));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("never throws, is deterministic, and finds a failure in any non-blank output", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (output) => {
        const first = extractFailures(output);
        expect(extractFailures(output)).toEqual(first);
        const visible = output.replace(/[\s\p{Cc}]/gu, "");
        if (first.length === 0) expect(visible === "" || output.includes("\x1b")).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });
});
