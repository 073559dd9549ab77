import { describe, expect, it } from "vitest";
import { cargoParser } from "./cargo.js";
import { failureOf } from "../failure-of.js";

const TEST_OUTPUT = `     Running unittests src/lib.rs (target/debug/deps/auth-6d763d81b044cec6)

running 3 tests
test tests::user_id ... FAILED
test tests::parses_port ... FAILED
test tests::passes ... ok

failures:

---- tests::user_id stdout ----

thread 'tests::user_id' (13711) panicked at src/lib.rs:41:9:
assertion \`left == right\` failed
  left: "123 "
 right: "123"
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

---- tests::parses_port stdout ----
DEBUG a line the test printed
thread 'tests::parses_port' (13720) panicked at src/lib.rs:11:35:
called \`Result::unwrap()\` on an \`Err\` value: ParseIntError { kind: InvalidDigit }


failures:
    tests::user_id
    tests::parses_port

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
`;

describe("cargoParser", () => {
  it("detects libtest's report and a test build that failed, not cargo build's errors or other runners", () => {
    expect(cargoParser.detect(TEST_OUTPUT)).toBe(true);
    const build = "error[E0308]: mismatched types\n --> src/lib.rs:2:22\n";
    expect(
      cargoParser.detect(
        `${build}error: could not compile \`shop\` (lib test) due to 1 previous error`,
      ),
    ).toBe(true);
    expect(
      cargoParser.detect(`${build}error: could not compile \`shop\` (lib) due to 1 previous error`),
    ).toBe(false);
    expect(cargoParser.detect("=== FAILURES ===\nE   assert 1 == 2\n")).toBe(false);
  });

  it("reads left as received and right as expected, quoting kept, at the panic's place", () => {
    expect(cargoParser.parse(TEST_OUTPUT)).toEqual([
      failureOf({
        test: "tests::user_id",
        file: "src/lib.rs",
        line: 41,
        expected: '"123"',
        received: '"123 "',
        message: "assertion `left == right` failed",
      }),
      failureOf({
        test: "tests::parses_port",
        file: "src/lib.rs",
        line: 11,
        message:
          "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
      }),
    ]);
  });

  it("reads the panic format before Rust 1.73 and panics printed without capture", () => {
    const output = `running 1 test
thread 'tests::adds' panicked at 'assertion failed: \`(left == right)\`
  left: \`5\`,
 right: \`4\`', src/lib.rs:36:9
test tests::adds ... FAILED
`;
    const [first] = cargoParser.parse(output);
    expect(first).toMatchObject({ test: "tests::adds", expected: "4", received: "5" });
  });

  it("quotes both sides of assert_ne rather than guessing which was expected", () => {
    const output = `---- tests::differs stdout ----
thread 'tests::differs' (1) panicked at src/lib.rs:5:9:
assertion \`left != right\` failed
  left: 3
 right: 3
`;
    expect(cargoParser.parse(output)).toEqual([
      failureOf({
        test: "tests::differs",
        file: "src/lib.rs",
        line: 5,
        message: "assertion `left != right` failed (left: 3, right: 3)",
      }),
    ]);
  });

  it("reports a compile error as a failure of the crate, with the types it names", () => {
    const output = `   Compiling billing v0.1.0 (/tmp/billing)
error[E0308]: mismatched types
 --> src/lib.rs:2:22
  |
2 |     let count: u32 = items.len();
  |                ---   ^^^^^^^^^^^ expected \`u32\`, found \`usize\`

For more information about this error, try \`rustc --explain E0308\`.
error: could not compile \`billing\` (lib test) due to 1 previous error
`;
    expect(cargoParser.parse(output)).toEqual([
      failureOf({
        test: "billing",
        file: "src/lib.rs",
        line: 2,
        expected: "`u32`",
        received: "`usize`",
        message: "error[E0308]: mismatched types",
        column: 22,
        rule: "E0308",
      }),
    ]);
  });

  it("reads semver's errors as rustc printed them: values in backticks, a label naming code", () => {
    // From fixtures/real-world/cargo/semver-compile-errors, colour removed.
    const output = `   Compiling semver v1.0.27 (/tmp/rw/other/semver-rs)
error[E0308]: mismatched types
  --> src/eval.rs:47:44
   |
47 |     if cmp.minor.is_some() && ver.minor != cmp.minor {
   |                               ---------    ^^^^^^^^^ expected \`u64\`, found \`Option<u64>\`
   |                               |
   |                               expected because this is \`u64\`
   |
   = note: expected type \`u64\`
              found enum \`Option<u64>\`

error[E0609]: no field \`pacth\` on type \`&Version\`
  --> src/eval.rs:78:28
   |
78 |                 return ver.pacth > patch;
   |                            ^^^^^ unknown field

error[E0061]: this function takes 3 arguments but 2 arguments were supplied
   --> src/parse.rs:45:23
    |
 45 |             return Ok(Version::new(major, minor));
    |                       ^^^^^^^^^^^^-------------- argument #3 of type \`u64\` is missing
    |
note: associated function defined here
   --> src/lib.rs:389:18
    |
389 |     pub const fn new(major: u64, minor: u64, patch: u64) -> Self {
    |                  ^^^                         ----------

error: could not compile \`semver\` (lib test) due to 3 previous errors
`;
    expect(
      cargoParser
        .parse(output)
        .map(({ expected, received, message }) => ({ expected, received, message })),
    ).toEqual([
      {
        expected: "`u64`",
        received: "`Option<u64>`",
        message: "error[E0308]: mismatched types",
      },
      {
        expected: null,
        received: null,
        message: "error[E0609]: no field `pacth` on type `&Version`",
      },
      {
        expected: null,
        received: null,
        message:
          "error[E0061]: this function takes 3 arguments but 2 arguments were supplied: argument #3 of type `u64` is missing",
      },
    ]);
  });

  it("yields no failures for a passing run", () => {
    const output = "running 1 test\ntest tests::ok ... ok\n\ntest result: ok. 1 passed; 0 failed\n";
    expect(cargoParser.parse(output)).toEqual([]);
  });

  it("reads a returned Err, a should_panic that did not, and a thread's panic as the cause", () => {
    const output = `running 3 tests
test tests::parses ... FAILED
test tests::overflows - should panic ... FAILED
test tests::worker ... FAILED

failures:

---- tests::parses stdout ----
Error: "bad size"
---- tests::overflows stdout ----
note: test did not panic as expected at src/lib.rs:49:8
---- tests::worker stdout ----

thread '<unnamed>' (3) panicked at src/lib.rs:29:14:
index out of bounds: the len is 0 but the index is 0

thread 'tests::worker' (2) panicked at src/lib.rs:31:23:
called \`Result::unwrap()\` on an \`Err\` value: Any { .. }

test result: FAILED. 0 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
    expect(cargoParser.parse(output)).toEqual([
      failureOf({ test: "tests::parses", message: 'Error: "bad size"' }),
      failureOf({
        test: "tests::overflows",
        file: "src/lib.rs",
        line: 49,
        message: "test did not panic as expected",
      }),
      failureOf({
        test: "tests::worker",
        file: "src/lib.rs",
        line: 29,
        message: "index out of bounds: the len is 0 but the index is 0",
      }),
    ]);
  });

  it("under --nocapture, gives a panic to its thread's test, never to the last report of another binary", () => {
    const output = `running 1 test
Error: "bad size"
test tests::parses ... FAILED

failures:

---- tests::overflows stdout ----
note: test did not panic as expected

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
     Running tests/api.rs (target/debug/deps/api-1)

running 1 test

thread 'shift_left' (9) panicked at tests/api.rs:6:5:
assertion \`left == right\` failed
  left: 0
 right: 1
test shift_left ... FAILED
`;
    expect(cargoParser.parse(output)).toEqual([
      failureOf({ test: "tests::parses", message: 'Error: "bad size"' }),
      failureOf({ test: "tests::overflows", message: "test did not panic as expected" }),
      failureOf({
        test: "shift_left",
        file: "tests/api.rs",
        line: 6,
        expected: "1",
        received: "0",
        message: "assertion `left == right` failed",
      }),
    ]);
  });

  it("reads doc-tests, whose names hold spaces, at their example's line when the panic counts inside it", () => {
    const output = `   Doc-tests semver

running 2 tests
test src/lib.rs - Version::cmp (line 433) ... FAILED
test src/lib.rs - (line 19) ... FAILED

failures:

---- src/lib.rs - Version::cmp (line 433) stdout ----
thread 'main' (943) panicked at src/lib.rs:19:1:
assertion \`left == right\` failed
  left: 1
 right: 2

---- src/lib.rs - (line 19) stdout ----
thread 'main' (942) panicked at src/lib.rs:21:5:
assertion failed: req.matches(&version)

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out
`;
    expect(
      cargoParser.parse(output).map((failure) => [failure.test, failure.file, failure.line]),
    ).toEqual([
      ["src/lib.rs - Version::cmp (line 433)", "src/lib.rs", 433],
      ["src/lib.rs - (line 19)", "src/lib.rs", 21],
    ]);
    expect(
      cargoParser.detect(
        "    Checking heck v0.5.0 (/w)\nerror: could not compile `heck` (lib test) due to 1 previous error",
      ),
    ).toBe(false);
  });

  it("reads a helper's labelled expected/actual lines, and places a check in a helper at the test's frame of RUST_BACKTRACE (shell-words)", () => {
    const output = `running 3 tests
test tests::split_comments ... FAILED
test tests::close ... FAILED
test tests::when_ok ... FAILED

failures:

---- tests::split_comments stdout ----

thread 'tests::split_comments' (24960) panicked at src/lib.rs:363:21:
After split(" a # comment").unwrap()
expected: ["a", "b"]
  actual: ["a"]

stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/5980/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/5980/library/core/src/panicking.rs:80:14
   2: shell_words::tests::split_ok
             at ./src/lib.rs:363:21
   3: shell_words::tests::split_comments
             at ./src/lib.rs:467:9
   4: shell_words::tests::split_comments::{{closure}}
             at ./src/lib.rs:466:24
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.

---- tests::close stdout ----

thread 'tests::close' (9875) panicked at src/lib.rs:973:9:
assertion failed: actual: \`0.868\`, expected: \`0.84\`: actual not within < 0.001 of expected
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/5980/library/std/src/panicking.rs:689:5
   1: strsim::tests::close
             at ./src/lib.rs:766:17
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.

---- tests::when_ok stdout ----

thread 'tests::when_ok' (3890) panicked at src/parse.rs:313:35:
called \`Result::unwrap()\` on an \`Err\` value: "bad unit"
stack backtrace:
   0: core::result::unwrap_failed
             at /rustc/5980/library/core/src/result.rs:1867:5
   1: bytesize::parse::tests::when_ok::parse
             at ./src/parse.rs:313:35
   2: bytesize::parse::tests::when_ok
             at ./src/parse.rs:321:20

test result: FAILED. 0 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out
`;
    const [helper, macro, unwrap] = cargoParser.parse(output);
    expect(helper).toEqual(
      failureOf({
        test: "tests::split_comments",
        file: "src/lib.rs",
        line: 467,
        expected: '["a", "b"]',
        received: '["a"]',
        message: 'After split(" a # comment").unwrap()',
      }),
    );
    // A macro's panic in the test itself: the backtrace puts it at the macro's body, the panic's
    // place at the call, which is kept.
    expect([macro?.file, macro?.line, macro?.testLocation]).toEqual(["src/lib.rs", 973, undefined]);
    // The code under test panicked (a nested function's unwrap): there, the test's line beside.
    expect([unwrap?.line, unwrap?.testLocation]).toEqual([
      313,
      { file: "src/parse.rs", line: 321 },
    ]);
  });
});
