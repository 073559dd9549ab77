import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRuns, fuzzSeed } from "../../test-support/hostile/fuzz-runs.js";
import { codePointLength } from "./clean/code-points.js";
import type { Failure, TestOutputParser } from "./feedback.js";
import { failureOf } from "./failure-of.js";
import { GENERIC_RUNNER } from "./read-failures.js";
import { testFeedback } from "./test-feedback.js";
import { withoutErrorName } from "./fit/feedback-items.js";
import cargoBasic from "./test-fixtures/cargo-basic.txt?raw";
import nodeTestTap from "./test-fixtures/node-test-tap.txt?raw";
import pytestBasic from "./test-fixtures/pytest-basic.txt?raw";
import vitestBasicColor from "./test-fixtures/vitest-basic-color.txt?raw";
import vitestBasic from "./test-fixtures/vitest-basic.txt?raw";
import jestSnapshots from "../../../fixtures/real-world/jest/normalizr-polymorphic-id-string/output.txt?raw";
import pytestCrashes from "../../../fixtures/real-world/pytest/marshmallow-integer-string/output.txt?raw";

const SEED_OUTPUT =
  "FAIL src/auth/login.test.ts\nExpected: token to contain userId\nReceived: undefined\n";

const total = (feedback: { summary: string; actionableItems: readonly string[] }): number =>
  codePointLength(feedback.summary) +
  feedback.actionableItems.reduce((sum, item) => sum + codePointLength(item), 0);

const hasLoneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("testFeedback: the seed", () => {
  it("says what was expected and received, and where", () => {
    const feedback = testFeedback(SEED_OUTPUT, { maxLength: 500 });
    expect(feedback.summary).toBe("Test failed: want token to contain userId, got undefined");
    expect(feedback.actionableItems).toEqual([
      "src/auth/login.test.ts: want token to contain userId, got undefined",
    ]);
    expect(feedback.priority).toBe("high");
    expect(feedback.runner).toBe(GENERIC_RUNNER);
    expect(feedback.failures).toHaveLength(1);
  });
});

describe("testFeedback: the summary says what items would repeat", () => {
  const failing = (test: string, line: number, expected: string, received: string): string =>
    [
      ` FAIL  test/case.test.ts > ${test}`,
      `AssertionError: expected ${received} to be ${expected} // Object.is equality`,
      ` ❯ test/case.test.ts:${line}:20`,
      "",
    ].join("\n");

  it("names a kind of check several failures share once, with how many share it", () => {
    const output = [
      failing("one", 3, "1", "2"),
      failing("two", 6, "3", "4"),
      failing("three", 9, "5", "6"),
    ].join("\n");
    const feedback = testFeedback(output, { maxLength: 500, testsFailed: true });
    expect(feedback.summary).toContain("; 3 with expected … to be … // Object.is equality");
  });

  it("counts every failure of a shared kind, the largest cause's too", () => {
    // held-out-26's python-slugify read `4 with AssertionError: … != …` of 11 such failures:
    // the count left out the 7 of the largest cause.
    const output = [
      failing("one", 3, "1", "2"),
      failing("two", 6, "1", "2"),
      failing("three", 9, "1", "2"),
      failing("four", 12, "5", "6"),
      failing("five", 15, "7", "8"),
    ].join("\n");
    const feedback = testFeedback(output, { maxLength: 500, testsFailed: true });
    expect(feedback.summary).toMatch(/^Test failed: 5 failing tests; 5 with expected … to be …/);
  });

  it("leaves a kind of check only two failures share to their items", () => {
    // Said once instead of twice, it would save no room; go-humanize's `On bytes(1PB - 1T),
    // expected …, but got …` took a third of the summary for two of fourteen failures.
    const output = [failing("one", 3, "1", "2"), failing("two", 6, "3", "4")].join("\n");
    const feedback = testFeedback(output, { maxLength: 500, testsFailed: true });
    expect(feedback.summary).toBe("Test failed: 2 failing tests");
    expect(feedback.actionableItems.join("\n")).toContain("// Object.is equality");
  });

  it("lists every cause when the cap has room for them, twenty only at the default", () => {
    // Thirty causes: each its own pair.
    const output = Array.from({ length: 30 }, (_, index) =>
      failing(`case ${index}`, 3 * index + 3, String(index), String(index + 100)),
    ).join("\n");
    const wide = testFeedback(output, { maxLength: 20_000, testsFailed: true });
    expect(wide.actionableItems).toHaveLength(30);
    expect(wide.actionableItems.join("\n")).not.toMatch(/\+\d+ more/);
    const tight = testFeedback(output, { maxLength: 500, testsFailed: true });
    expect(tight.actionableItems.at(-1)).toMatch(/^\+\d+ more$/);
  });

  it("drops the shared kind before it crowds out the items at a tight cap", () => {
    const output = [failing("one", 3, "1", "2"), failing("two", 6, "3", "4")].join("\n");
    const feedback = testFeedback(output, { maxLength: 120, testsFailed: true });
    expect(codePointLength(feedback.summary)).toBeLessThanOrEqual(Math.max(36, 120 * 0.3));
  });
});

describe("testFeedback: real runners", () => {
  it("counts the failures and their files in the summary; the items say what each one is", () => {
    const feedback = testFeedback(vitestBasic, { maxLength: 500 });
    // The kind of check half of them share is said once, so no item repeats it.
    expect(feedback.summary).toBe(
      "Test failed: 6 failing tests in 2 files; 3 with expected … to be … // Object.is equality",
    );
    // The summary names the kind of check, so the item gives the runner's words without their
    // comment, no longer than the bare pair, and has room to name the test.
    expect(feedback.actionableItems[0]).toBe(
      "src/auth/login.test.ts:10 login > payload > contains the numeric userId: expected '123' to be 123",
    );
    // The second failure's values (a type mismatch) are worth more than the third's test frame:
    // its place and its test's name already lead to the code.
    expect(feedback.actionableItems[1]).toBe(
      '…:13 … > matches the expected object: want "userId": 123, got "userId": "123",',
    );
    expect(feedback.actionableItems[3]).toBe(
      "src/auth/login.ts:5 parseId > parses empty: TypeError: empty id",
    );
    expect(feedback.actionableItems).toHaveLength(6);
    expect(total(feedback)).toBeLessThanOrEqual(500);
  });

  it("gives coloured and plain output the same feedback", () => {
    expect(testFeedback(vitestBasicColor, { maxLength: 500 })).toEqual(
      testFeedback(vitestBasic, { maxLength: 500 }),
    );
  });

  it("uses the error's words when the values are unknown", () => {
    const feedback = testFeedback(cargoBasic, { maxLength: 1000 });
    expect(feedback.actionableItems).toContain(
      "src/lib.rs:7 tests::panics_in_lib: value out of range: 42",
    );
    expect(feedback.actionableItems).toContain(
      'src/lib.rs:23 tests::numeric_user_id: want "124", got "123" (assertion `left == right` failed)',
    );
  });

  it("keeps the error's first line whole when everything fits", () => {
    const feedback = testFeedback(vitestBasic, { maxLength: 2000 });
    expect(feedback.actionableItems[2]).toBe(
      "src/auth/login.test.ts:17 login > has a userId when no user: AssertionError: expected undefined to be defined",
    );
    expect(feedback.failures[2]?.message).toBe("AssertionError: expected undefined to be defined");
  });

  it("gives every failure its place before any gets its name or words", () => {
    for (const maxLength of [150, 300, 500]) {
      const feedback = testFeedback(vitestBasic, { maxLength });
      expect(feedback.actionableItems).toHaveLength(feedback.failures.length);
      feedback.failures.forEach((failure, index) => {
        expect(feedback.actionableItems[index]).toContain(`:${failure.line}`);
      });
    }
  });

  it("names each test whole, or by its leaf after a name with the same stem", () => {
    const feedback = testFeedback(vitestBasic, { maxLength: 2000 });
    feedback.failures.forEach((failure, index) => {
      expect(feedback.actionableItems[index]).toContain(failure.test ?? "");
    });
    const tight = testFeedback(vitestBasic, { maxLength: 500 });
    // The file was named whole two items above: coming back to it, the item names it short.
    expect(tight.actionableItems[0]).toContain("src/auth/login.test.ts:10");
    expect(tight.actionableItems[4]).toMatch(/^login\.test\.ts:26 … > sums/);
  });

  it("never emits the raw log", () => {
    const feedback = testFeedback(pytestBasic, { maxLength: 5000 });
    const text = [feedback.summary, ...feedback.actionableItems].join("\n");
    expect(text).not.toContain("test session starts");
    expect(text).not.toContain("short test summary info");
    expect(text).not.toContain("passed");
  });

  it("reads node:test's TAP output", () => {
    const feedback = testFeedback(nodeTestTap, { maxLength: 500 });
    expect(feedback.summary).toBe("Test failed: 4 failing tests");
    // node:test's own words quote both values: they stand for the pair.
    expect(feedback.actionableItems[0]).toContain(
      "Expected values to be strictly equal: '123' !== 123",
    );
  });
});

describe("testFeedback: the cap", () => {
  it.each([1, 2, 5, 20, 60, 120, 500])("fits max_length %i", (maxLength) => {
    for (const output of [SEED_OUTPUT, vitestBasic, cargoBasic, pytestBasic]) {
      expect(total(testFeedback(output, { maxLength }))).toBeLessThanOrEqual(maxLength);
    }
  });

  it("keeps userId in a tight summary", () => {
    expect(testFeedback(SEED_OUTPUT, { maxLength: 80 }).summary).toContain("userId");
  });
});

describe("testFeedback: parsers", () => {
  const custom: Failure = {
    test: "custom test",
    file: "x.spec",
    line: 1,
    expected: "a",
    received: "b",
    message: "boom",
  };
  const parser = (
    name: string,
    detects: boolean,
    failures: readonly Failure[],
  ): TestOutputParser => ({
    name,
    detect: () => detects,
    parse: () => failures,
  });

  it("uses the first parser that detects the output and finds failures", () => {
    const feedback = testFeedback(SEED_OUTPUT, {
      maxLength: 500,
      parsers: [
        parser("skipped", false, [custom]),
        parser("empty", true, []),
        parser("mine", true, [custom]),
      ],
    });
    expect(feedback.runner).toBe("mine");
    expect(feedback.failures).toEqual([custom]);
    expect(feedback.actionableItems).toEqual(["x.spec:1 custom test: want a, got b (boom)"]);
  });

  const many = (count: number, files: number): Failure[] =>
    Array.from({ length: count }, (_, index) => ({
      test: `suite > case number ${index + 1} with a descriptive name`,
      file: `test/part-${index % files}.test.ts`,
      line: index + 10,
      expected: `${index}`,
      received: `${index + 1}`,
      message: "expect(received).toBe(expected)",
    }));

  it("ends a list that could not hold every failure with a count of the rest", () => {
    const failures = many(24, 3);
    const feedback = testFeedback("x", { maxLength: 500, parsers: [parser("p", true, failures)] });
    const listed = feedback.actionableItems.slice(0, -1);
    expect(listed.length).toBeGreaterThan(1);
    const rest = failures.slice(listed.length);
    expect(feedback.actionableItems.at(-1)).toBe(`+${rest.length} more`);
    expect(total(feedback)).toBeLessThanOrEqual(500);
  });

  it("counts in `+N more` only failures whose cause no item shows, not names an item had no room for", () => {
    // One cause broke 30 tests (one pair at one line), another broke one: both items fit, not
    // every name does; nothing is left out that `+N more` could stand for.
    const shared = Array.from({ length: 30 }, (_, index) =>
      failureOf({
        test: `parser > reads the long and descriptive case number ${index + 1}`,
        file: "test/parser.test.ts",
        line: 40,
        expected: "1",
        received: "2",
        message: "expect(received).toBe(expected)",
      }),
    );
    const other = failureOf({
      test: "lexer > splits",
      file: "test/lexer.test.ts",
      line: 9,
      expected: "a",
      received: "b",
    });
    const both = testFeedback("x", {
      maxLength: 300,
      parsers: [parser("p", true, [...shared, other])],
    });
    expect(both.actionableItems.join("\n")).not.toMatch(/\+\d+ more/);
    expect(both.actionableItems.join("\n")).toContain("test/lexer.test.ts:9");
    // A cause with no item is counted with all its failures.
    const causes = Array.from({ length: 40 }, (_, index) =>
      failureOf({
        test: `case ${index}`,
        file: `test/file-number-${index}.test.ts`,
        line: 100 + index,
        expected: `${index}`,
        received: `${index + 1}`,
      }),
    );
    const items = testFeedback("x", {
      maxLength: 300,
      parsers: [parser("p", true, [...causes, ...shared])],
    }).actionableItems;
    const shown = items.length - 1;
    expect(items.at(-1)).toBe(`+${40 - shown + 30} more`);
  });

  it("never names a matcher's comment alone as a shared kind of check (Fuse)", () => {
    const check = (line: number, message: string, expected: string, received: string) =>
      failureOf({
        test: `case ${line}`,
        file: "test/a.test.js",
        line,
        expected,
        received,
        message,
      });
    const failures = [
      // Vitest's diff prints `- 0` / `+ 1` where the message says `+0`: its kind keeps `+0`.
      check(26, "AssertionError: expected 1 to be +0 // Object.is equality", "0", "1"),
      check(43, "AssertionError: expected +0 to be 1 // Object.is equality", "1", "0"),
      check(
        1169,
        "AssertionError: expected '0312696957' to be '0765348276' // Object.is equality",
        "'0765348276'",
        "'0312696957'",
      ),
      check(
        9,
        "AssertionError: expected [ 7, 14, +0 ] to deeply equal [ 14, 7, +0 ] // deep equality",
        "[ 14, 7, +0 ]",
        "[ 7, 14, +0 ]",
      ),
    ];
    const { summary } = testFeedback("x", {
      maxLength: 500,
      parsers: [parser("p", true, failures)],
    });
    expect(summary).not.toMatch(/with … \/\//);
  });

  it("leaves a kind of check only one cause has to that cause's item", () => {
    const check = (test: string, line: number, message: string): Failure => ({
      test,
      file: "spec/a.spec.js",
      line,
      expected: "45",
      received: "'045'",
      message,
    });
    const crash = (test: string, line: number): Failure => ({
      ...check(test, line, "TypeError: x is not a function"),
      expected: null,
      received: null,
    });
    const equal = "Expected $.a = '045' to equal 45.";
    const feedback = testFeedback("x", {
      maxLength: 500,
      parsers: [
        parser("p", true, [
          crash("one", 3),
          crash("two", 6),
          crash("three", 9),
          check("four", 12, equal),
          check("five", 15, equal),
        ]),
      ],
    });
    expect(feedback.summary).toBe(
      "Test failed: 5 failing tests; 3 with TypeError: x is not a function",
    );
  });

  it("names a kind of check by the ending the words of several causes share", () => {
    // The call checked differs from test to test; the check does not.
    const check = (test: string, line: number, call: string): Failure =>
      failureOf({
        test,
        file: "test/validators.test.js",
        line,
        message: `Error: validator.${call} failed but should have passed`,
      });
    const crash = (test: string, line: number): Failure =>
      failureOf({ test, file: "src/lib/isFloat.js", line, message: "TypeError: x is undefined" });
    const failures = [
      crash("sanitizers › floats", 1),
      check("isIP › validates", 5, 'isIP("255.255.255.255")'),
      check("isPort › validates", 9, 'isPort("65535")'),
      check("isInt › validates", 12, 'isInt("15", {"max":15})'),
    ];
    const feedback = testFeedback("x", { maxLength: 500, parsers: [parser("p", true, failures)] });
    expect(feedback.summary).toBe(
      "Test failed: 4 failing tests in 2 files; 3 with … failed but should have passed",
    );
    // An ending of fewer than three words, or of elided values, names no kind.
    const short = failures.map((failure) =>
      failureOf({
        ...failure,
        message: failure.message.replace(/ but should have passed$/, " badly"),
      }),
    );
    expect(testFeedback("x", { maxLength: 500, parsers: [parser("p", true, short)] }).summary).toBe(
      "Test failed: 4 failing tests in 2 files",
    );
  });

  it("counts the test files that failed, not the source file a test's error was thrown in", () => {
    const thrown = (test: string, line: number): Failure =>
      failureOf({
        test,
        file: "index.js",
        line: 89,
        message: "TypeError: Cannot mix BigInt and other types",
        testLocation: { file: "test.js", line },
      });
    const failures = [
      thrown("bits option", 49),
      thrown("binary option", 60),
      failureOf({
        test: "precision",
        file: "test.js",
        line: 71,
        expected: "'1.23 kB'",
        received: "'1.2 kB'",
      }),
    ];
    const feedback = testFeedback("x", { maxLength: 500, parsers: [parser("p", true, failures)] });
    expect(feedback.summary).not.toContain("files");
    expect(feedback.summary).toMatch(/^Test failed: 3 failing tests; 2 with TypeError/);
  });

  it("names a long kind by its first clause, so the data each failure quotes keeps none apart", () => {
    const data = (first: string): string =>
      `Object({ first: '${first}', second: 'a longer second string', expected: 0.8 })`;
    const row = (test: string, line: number, first: string): Failure =>
      failureOf({
        test,
        line,
        expected: "0.8",
        received: `0.${line}`,
        file: "spec/index.spec.js",
        message: `Expected 0.${line} to be 0.8, ${data(first)}.`,
      });
    const feedback = testFeedback("x", {
      maxLength: 500,
      parsers: [
        parser("p", true, [row("a", 30, "healed"), row("b", 31, "web"), row("c", 32, "iphone")]),
      ],
    });
    expect(feedback.summary).toBe("Test failed: 3 failing tests; 3 with Expected … to be …");
  });

  it("names a kind of bare operators by the error's name (node:assert's `NaN == 1024`, bytes)", () => {
    const row = (test: string, line: number, expected: string): Failure =>
      failureOf({
        test,
        line,
        expected,
        received: "NaN",
        file: "test/byte-parse.js",
        message: `AssertionError [ERR_ASSERTION]: NaN == ${expected}`,
      });
    const crash = failureOf({
      test: "format",
      file: "index.js",
      line: 91,
      message: "TypeError: Cannot read properties of undefined (reading 'unitSeparator')",
    });
    const failures = [crash, row("KB", 27, "1024"), row("MB", 44, "1048576"), row("GB", 51, "7")];
    const feedback = testFeedback("x", { maxLength: 500, parsers: [parser("p", true, failures)] });
    expect(feedback.summary).toBe(
      "Test failed: 4 failing tests in 2 files; 3 with AssertionError: … == …",
    );
  });

  it("names pytest's bare `assert … == …` by the error's name, as the run prints it (humanize)", () => {
    const row = (test: string, expected: string, received: string): Failure =>
      failureOf({
        test: `tests/test_filesize.py::test_naturalsize[${test}]`,
        file: "tests/test_filesize.py",
        line: 97,
        expected,
        received,
        message: `AssertionError: assert ${received} == ${expected}`,
      });
    const failures = [
      row("a", "'31.0 KiB'", "'31.7 KiB'"),
      row("b", "'32.0 MiB'", "'33.6 MiB'"),
      failureOf({ test: "t", file: "a.py", line: 3, expected: "1", received: "2" }),
      row("c", "'33.0 GiB'", "'35.4 GiB'"),
    ];
    const feedback = testFeedback("x", { maxLength: 500, parsers: [parser("p", true, failures)] });
    expect(feedback.summary).toBe(
      "Test failed: 4 failing tests in 2 files; 3 with AssertionError: assert … == …",
    );
  });

  it("keeps a summary of several causes within 100 code points, however large the cap", () => {
    const gist = "TypeError: Cannot read properties of undefined (reading 'unitSeparator')";
    const crash = (test: string, line: number): Failure =>
      failureOf({ test, file: "index.js", line, message: gist });
    const failures = [crash("one", 3), crash("two", 3), crash("three", 3)];
    failures.push(failureOf({ test: "four", file: "b.js", line: 9, expected: "1", received: "2" }));
    const summary = (maxLength: number): string =>
      testFeedback("x", { maxLength, parsers: [parser("p", true, failures)] }).summary;
    // 36 for the count, 79 for the cause: 115 fit a third of 500, not 100.
    expect(summary(500)).toBe("Test failed: 4 failing tests in 2 files");
    expect(summary(2000)).toBe("Test failed: 4 failing tests in 2 files");
  });

  it("counts no rest when a tighter fit names every failure", () => {
    // Real runs where less room for the items named every failure.
    for (const output of [jestSnapshots, pytestCrashes]) {
      const feedback = testFeedback(output, { maxLength: 500 });
      expect(feedback.actionableItems.join("\n")).not.toMatch(/\+0 more/);
      expect(total(feedback)).toBeLessThanOrEqual(500);
    }
  });

  it("adds no count when every failure is listed", () => {
    const feedback = testFeedback("x", {
      maxLength: 500,
      parsers: [parser("p", true, many(2, 1))],
    });
    expect(feedback.actionableItems).toHaveLength(2);
    expect(feedback.actionableItems.join("\n")).not.toContain("more");
  });

  it("keeps the count within the cap for any number of failures and any cap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 900 }),
        (count, files, cap) => {
          const feedback = testFeedback("x", {
            maxLength: cap,
            parsers: [parser("p", true, many(count, files))],
          });
          expect(total(feedback)).toBeLessThanOrEqual(cap);
          const last = feedback.actionableItems.at(-1) ?? "";
          if (last.startsWith("+")) {
            const counted = Number(/^\+(\d+)/.exec(last)?.[1]);
            expect(counted).toBeGreaterThan(0);
            expect(counted + feedback.actionableItems.length - 1).toBe(count);
          }
        },
      ),
      { numRuns: fuzzRuns(400), ...fuzzSeed() },
    );
  });

  it("loses nothing when everything fits: every failure named, at its place, its words whole", () => {
    const words = fc.constantFrom(
      "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>",
      "expect(received).toBe(expected) // Object.is equality",
      "expect(subject.size).to eq(expected)",
      "Expected values to be strictly equal: 2 !== 1",
      "java.lang.IllegalStateException: closed",
    );
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 12 }), (messages) => {
        const failures = messages.map((message, index) => ({
          ...many(messages.length, 2)[index]!,
          message,
        }));
        const feedback = testFeedback("x", {
          maxLength: 100_000,
          parsers: [parser("p", true, failures)],
        });
        const text = feedback.actionableItems.join("\n");
        expect(text).not.toMatch(/\+\d+ more/);
        for (const failure of failures) {
          expect(text).toContain(`${failure.file}:${failure.line} ${failure.test}`);
          // Words that quote both values stand for them, a qualified error named by its class.
          expect(text).toContain(withoutErrorName(failure.message));
        }
      }),
      { numRuns: fuzzRuns(100), ...fuzzSeed() },
    );
  });

  it("falls back to the general extractor", () => {
    const feedback = testFeedback(SEED_OUTPUT, {
      maxLength: 500,
      parsers: [parser("no", false, [custom])],
    });
    expect(feedback.runner).toBe(GENERIC_RUNNER);
  });

  it("hands parsers clean, redacted text and redacts what they return", () => {
    let seen = "";
    const leaky: TestOutputParser = {
      name: "leaky",
      detect: (text) => {
        seen = text;
        return true;
      },
      parse: () => [{ ...custom, received: "AKIAIOSFODNN7EXAMPLE" }],
    };
    const feedback = testFeedback("\x1b[31mtoken ghp_1234567890abcdefghijABCDEFGHIJ123456\x1b[0m", {
      maxLength: 500,
      parsers: [leaky],
    });
    expect(seen).toBe("token [REDACTED:github_token]");
    expect(feedback.failures[0]?.received).toBe("[REDACTED:aws_access_key]");
    expect(feedback.actionableItems.join()).not.toContain("AKIA");
  });

  it("drops a pair whose two sides read the same, whichever parser gave it (qs, tape)", () => {
    const output = `TAP version 13
# parse()
not ok 3 defaults to a depth of 5
  ---
    operator: deepEqual
    expected: |-
      { a: { b: { c: { d: { e: [Object] } } } } }
    actual: |-
      { a: { b: { c: { d: { e: [Object] } } } } }
    at: Test.<anonymous> (/tmp/rw/qs/test/parse.js:204:7)
  ...

1..3
# tests 3
# pass  2
# fail  1
`;
    const feedback = testFeedback(output, { maxLength: 500 });
    expect(feedback.failures[0]).toMatchObject({ expected: null, received: null });
    const alike = { ...custom, expected: "[Object]", received: "[Object]" };
    const plugged = testFeedback("x", { maxLength: 500, parsers: [parser("p", true, [alike])] });
    expect(plugged.failures[0]).toMatchObject({ expected: null, received: null });
    expect(plugged.actionableItems.join()).not.toContain("[Object]");
  });
});

describe("testFeedback: redaction", () => {
  it("redacts before extracting, so no field carries a credential", () => {
    const output = [
      "FAIL src/auth/login.test.ts",
      "Expected: eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjF9.c2lnbmF0dXJlc2lnbmF0dXJl",
      "Received: Bearer abcdefghijklmnopqrstuvwxyz",
      "Error: GET https://admin:hunter2@db.internal/ failed",
    ].join("\n");
    const feedback = testFeedback(output, { maxLength: 500 });
    const everything = JSON.stringify(feedback);
    expect(everything).not.toContain("eyJhbGciOiJIUzI1NiJ9");
    expect(everything).not.toContain("abcdefghijklmnopqrstuvwxyz");
    expect(everything).not.toContain("hunter2");
    expect(feedback.failures[0]?.expected).toBe("[REDACTED:jwt]");
  });
});

describe("testFeedback: degenerate output", () => {
  it("still says the test failed when the runner printed nothing", () => {
    expect(testFeedback("", { maxLength: 500 })).toEqual({
      summary: "Test failed with no output",
      actionableItems: [],
      priority: "high",
      failures: [],
      runner: GENERIC_RUNNER,
    });
  });

  it("counts fallback lines without calling them tests", () => {
    const feedback = testFeedback("error: one\nerror: two\n", { maxLength: 500 });
    expect(feedback.summary).toBe("Test failed: error: one");
    expect(feedback.actionableItems).toEqual(["error: one", "error: two"]);
  });

  it("handles a 10 MB single line", { timeout: 60_000 }, () => {
    const feedback = testFeedback("AssertionError: " + "é".repeat(10 * 1024 * 1024), {
      maxLength: 500,
    });
    expect(total(feedback)).toBeLessThanOrEqual(500);
    expect(feedback.summary.startsWith("Test failed: AssertionError: éé")).toBe(true);
  });
});

describe("testFeedback (properties)", () => {
  const unit = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "\n",
        " ",
        "\t",
        "\r",
        "😀",
        "👩‍💻",
        "\x1b[31m",
        "\x1b]8;;x\x07",
        "\0",
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "FAIL src/a.test.ts",
        "\nExpected: ",
        "\nReceived: ",
        "\n  ● suite › test\n",
        "\n× test\n",
        "\nnot ok 1 - x\n",
        "\n--- FAIL: TestX\n",
        "\nE   assert 1 == 2\n",
        "\n    at f (src/a.ts:1:2)\n",
      ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    },
  );
  const output = fc.string({ unit, maxLength: 200 });
  const maxLength = fc.integer({ min: 1, max: 700 });

  it("never exceeds the cap and never produces a lone surrogate", () => {
    fc.assert(
      fc.property(output, maxLength, (text, cap) => {
        const feedback = testFeedback(text, { maxLength: cap });
        expect(total(feedback)).toBeLessThanOrEqual(cap);
        expect(hasLoneSurrogate(feedback.summary)).toBe(false);
        for (const item of feedback.actionableItems) expect(hasLoneSurrogate(item)).toBe(false);
        // Low only when a runner's parser read the text as a passing run.
        expect(feedback.priority).toBe(
          feedback.summary.startsWith("No failing test in the") ? "low" : "high",
        );
      }),
      { numRuns: fuzzRuns(600), ...fuzzSeed() },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(output, maxLength, (text, cap) => {
        expect(testFeedback(text, { maxLength: cap })).toEqual(
          testFeedback(text, { maxLength: cap }),
        );
      }),
      { numRuns: fuzzRuns(200), ...fuzzSeed() },
    );
  });
});

describe("testFeedback: passing runs", () => {
  const allPassing = import.meta.glob<string>(
    "../../../fixtures/runners/*/all-passing/output.txt",
    {
      query: "?raw",
      import: "default",
      eager: true,
    },
  );

  it("finds the all-passing outputs", () => {
    expect(Object.keys(allPassing).length).toBeGreaterThanOrEqual(6);
  });

  it.each(Object.entries(allPassing))("%s yields no failures", (_file, output) => {
    const feedback = testFeedback(output, { maxLength: 500 });
    expect(feedback.failures).toEqual([]);
    expect(feedback.runner).not.toBe(GENERIC_RUNNER);
    expect(feedback.summary).toMatch(/^No failing test in the \S+ output$/);
    expect(feedback.priority).toBe("low");
  });

  it("still says something when the caller knows the run failed", () => {
    const [output = ""] = Object.values(allPassing);
    const feedback = testFeedback(output, { maxLength: 500, testsFailed: true });
    expect(feedback.failures.length).toBeGreaterThan(0);
    expect(feedback.priority).toBe("high");
  });
});
