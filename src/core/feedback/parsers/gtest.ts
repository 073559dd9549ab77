import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import { firstChangedPair } from "./diff-pair.js";
import { MAX_FIELD_LENGTH, cappedValues } from "../field-length.js";

/** CTest's prefix on each line of a test's output under `--verbose`: `1: [ RUN      ] …`. */
const CTEST_PREFIX = /^\d+: /;

/** A test starts: `[ RUN      ] NodeTest.LoadTildeAsNull`. */
const RUN = /^\[ RUN {6}\] (\S+)$/;

/** A test ends: `[       OK ] NodeTest.Bool (0 ms)`, `[  FAILED  ] NodeTest.Bool (0 ms)`. */
const END = /^\[ {2}(?:FAILED|SKIPPED) {2}\] \S+?(?:, where .*)? \(\d+ ms\)$|^\[ {7}OK \] /;

/** A failed check: `/app/test/a_test.cpp:314: Failure`, `unknown file: Failure` (a C++ exception). */
const CHECK = /^(.+?):(\d+): Failure$|^unknown file: Failure$/;

/** GoogleTest's own count: `[  FAILED  ] 4 tests, listed below:`. */
const FAILED_COUNT = /^\[ {2}FAILED {2}\] (\d+) tests?, listed below:$/;

/** The closing line of a run: `[==========] 1054 tests from 18 test suites ran. (1242 ms total)`. */
const RAN = /^\[==========\] \d+ tests? from \d+ test (?:suites?|cases?) ran\./;

/**
 * GoogleTest's console output, bare or under CTest (`ctest --output-on-failure --verbose`,
 * whose `N: ` prefixes are dropped and whose second copy of a test's output adds nothing): one
 * failure per failed check between a test's `[ RUN ]` and its end, named by the test, at the
 * check's `file:line`; `Expected equality of these values:` gives the two sides (a side printed
 * without `Which is:` is a literal, the expected one; else the first, GoogleTest's own
 * `EXPECT_EQ(expected, actual)`), or the first lines its `With diff:` changes; `Value of:` /
 * `Actual:` / `Expected:` the others; a C++ exception's description its message. A test that
 * started and never ended (a crash) is a failure of its own. `N tests, listed below` is the count.
 */
export const gtestParser: TestOutputParser = {
  name: "gtest",
  detect: (output) => {
    const lines = plainLines(output);
    return lines.some((line) => RUN.test(line)) && lines.some((line) => RAN.test(line));
  },
  parse: (output) => distinct(checks(plainLines(output))),
  reportedFailures: (output) => {
    for (const line of plainLines(output)) {
      const count = FAILED_COUNT.exec(line);
      if (count !== null) return Number(count[1]);
    }
    return null;
  },
};

/** The output's lines without CTest's prefix. */
function plainLines(output: string): string[] {
  return logLines(output).map((line) => line.replace(CTEST_PREFIX, ""));
}

/** Every failed check, in order, and every test that started but never ended. */
function checks(lines: readonly string[]): Failure[] {
  const failures: Failure[] = [];
  let test: string | null = null;
  let block: { place: RegExpExecArray; lines: string[] } | null = null;
  const close = (): void => {
    if (block !== null && test !== null)
      failures.push(checkFailure(test, block.place, block.lines));
    block = null;
  };
  for (const line of lines) {
    const run = RUN.exec(line);
    if (run?.[1] !== undefined) {
      close();
      test = run[1];
      continue;
    }
    if (test === null) continue;
    if (END.test(line) || RAN.test(line)) {
      const crashed = block === null && RAN.test(line) && !failures.some((f) => f.test === test);
      close();
      if (crashed) failures.push(failureOf({ test, message: "the test did not finish" }));
      test = null;
      continue;
    }
    const check = CHECK.exec(line);
    if (check !== null) {
      close();
      block = { place: check, lines: [] };
      continue;
    }
    block?.lines.push(line);
  }
  close();
  return failures;
}

/** One failed check as a failure of `test`. */
function checkFailure(test: string, place: RegExpExecArray, lines: readonly string[]): Failure {
  const body = lines.filter((line) => line.trim() !== "");
  const values = diffValues(body) ?? equalityValues(body) ?? valueOf(body);
  return failureOf({
    test,
    ...(place[1] === undefined ? {} : { file: place[1], line: Number(place[2]) }),
    ...(values ?? {}),
    message: truncateCodePoints(body[0]?.trim() ?? "", MAX_FIELD_LENGTH),
  });
}

/**
 * `Expected equality of these values:` and each side's expression, with `Which is:` below it
 * when the expression is not the value itself: a literal side is the expected one, else the
 * first; `swapped` when the second side is the expected one.
 */
function equalitySides(
  body: readonly string[],
): { expected: string; received: string; swapped: boolean } | null {
  if (body[0] !== "Expected equality of these values:") return null;
  const sides: { value: string; literal: boolean }[] = [];
  for (const line of body.slice(1)) {
    const which = /^ {4}Which is: (.*)$/.exec(line)?.[1];
    if (which !== undefined && sides.length > 0) {
      sides[sides.length - 1] = { value: which, literal: false };
    } else if (/^ {2}\S/.test(line)) {
      sides.push({ value: line.trim(), literal: true });
    } else {
      break;
    }
  }
  const [first, second] = sides;
  if (first === undefined || second === undefined) return null;
  const swapped = second.literal && !first.literal;
  const [expected, received] = swapped ? [second, first] : [first, second];
  return { expected: expected.value, received: received.value, swapped };
}

/** The two sides of `Expected equality of these values:`. */
function equalityValues(body: readonly string[]): { expected: string; received: string } | null {
  const sides = equalitySides(body);
  if (sides === null) return null;
  return cappedValues(sides.expected, sides.received);
}

/** `Value of: x` / `  Actual: false` / `Expected: true` (`EXPECT_TRUE` and the like). */
function valueOf(body: readonly string[]): { expected: string; received: string } | null {
  const actual = body.find((line) => line.startsWith("  Actual: "));
  const expected = body.find((line) => line.startsWith("Expected: "));
  if (actual === undefined || expected === undefined || !body[0]?.startsWith("Value of: ")) {
    return null;
  }
  return cappedValues(expected.slice("Expected: ".length), actual.slice("  Actual: ".length));
}

/**
 * The first line `With diff:` takes out of the first side (`-`) and the first it puts in (`+`),
 * indentation kept — what differs in two long multi-line strings — the expected one first.
 */
function diffValues(body: readonly string[]): { expected: string; received: string } | null {
  const start = body.indexOf("With diff:");
  if (start < 0) return null;
  const pair = firstChangedPair(body.slice(start + 1).filter((line) => !line.startsWith("@@")));
  if (pair === null) return null;
  const swapped = equalitySides(body.slice(0, start))?.swapped ?? false;
  const [expected, received] = swapped ? [pair.added, pair.removed] : [pair.removed, pair.added];
  return cappedValues(expected, received);
}

/** The failures without the second copy CTest prints of a test's output. */
function distinct(failures: readonly Failure[]): Failure[] {
  const seen = new Set<string>();
  return failures.filter((failure) => {
    const key = JSON.stringify(failure);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
