import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import { failureOf } from "../failure-of.js";
import { MAX_FIELD_LENGTH, cappedValues } from "../field-length.js";

/** The console launcher's failure list: `Failures (7):`. */
const CONSOLE_FAILURES = /^Failures \(\d+\):$/;

/** The console launcher's counters: `[         7 tests failed          ]`. */
const CONSOLE_COUNTER = /^\[\s*(\d+) (tests|containers) (failed|successful|found)\s*\]$/;

/** A Surefire result of one class or the run: `Tests run: 8, Failures: 6, Errors: 1, Skipped: 1`. */
const SUREFIRE_TOTALS = /^Tests run: \d+, Failures: (\d+), Errors: (\d+), Skipped: \d+(\D.*)?$/;

/** A javac error as Maven prints it: `/src/main/java/shop/Cart.java:[29,68] cannot find symbol`. */
const JAVAC_ERROR = /^(\S+\.(?:java|kt|scala|groovy)):\[(\d+),(\d+)\] (\S.*)$/;

/** A stack frame: `at shop.CartTest.sumsPrices(CartTest.java:21)`, without `at` in the console launcher. */
const FRAME = /^(?:at )?([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/;

/** Packages of the JDK, the test frameworks and the build: frames there say nothing about the fix. */
const FRAMEWORK =
  /^(?:java|javax|jdk|sun|com\.sun|kotlin|scala|org\.junit|junit|org\.opentest4j|org\.assertj|org\.hamcrest|org\.mockito|org\.apache\.maven|org\.gradle|worker\.org\.gradle)\./;

/**
 * JUnit 5 on the console: the console launcher's tree (its `Failures (N):` list: the test, its
 * `MethodSource`, `=> ExceptionClass: message` and frames) and Maven Surefire's report
 * (`name  Time elapsed: … <<< FAILURE!`, the exception, `at` frames), JUnit 4 and TestNG under
 * Surefire too. Each failure is named as the runner names it (the launcher's
 * `JUnit Jupiter:CartTest:sumsPrices()`, Surefire's `shop.CartTest.sumsPrices`), placed at its
 * first frame outside the JDK and the test frameworks, in the standard source layout
 * (`src/test/java/shop/CartTest.java:21`), with the exception's line as the message and `expected: <1> but
 * was: <2>` as the values (`<1>`, `<2>`, as printed); a value printed with its class (`java.lang.String@1b2c<123>`) keeps
 * its type in quotes (`"123"`). A Maven build that did not compile gives javac's errors as
 * findings.
 */
export const junit5Parser: TestOutputParser = {
  name: "junit5",
  detect: (output) =>
    logLines(output).some((line) => {
      const trimmed = withoutMavenLevel(line.trim());
      return (
        CONSOLE_FAILURES.test(trimmed) ||
        CONSOLE_COUNTER.test(trimmed) ||
        SUREFIRE_TOTALS.test(trimmed) ||
        /^COMPILATION ERROR :?$/.test(trimmed)
      );
    }),
  parse: (output) => {
    const lines = logLines(output).map((line) => withoutMavenLevel(line.trimEnd()));
    return [...compileErrors(lines), ...consoleFailures(lines), ...surefireFailures(lines)];
  },
  reportedFailures: (output) => {
    const lines = logLines(output).map((line) => withoutMavenLevel(line.trim()));
    let console: number | null = null;
    let surefire: number | null = null;
    for (const line of lines) {
      const counter = CONSOLE_COUNTER.exec(line);
      if (counter !== null && counter[3] === "failed")
        console = (console ?? 0) + Number(counter[1]);
      const totals = SUREFIRE_TOTALS.exec(line);
      // A class's own result says how long it took; the run's (one per module) does not.
      if (totals !== null && !(totals[3] ?? "").includes("Time elapsed")) {
        surefire = (surefire ?? 0) + Number(totals[1]) + Number(totals[2]);
      }
    }
    // javac's count under Maven's `COMPILATION ERROR :` banner: `2 errors`.
    const compiled = lines.some((line) => /^COMPILATION ERROR :?$/.test(line))
      ? lines.map((line) => /^(\d+) errors?$/.exec(line)?.[1]).find((count) => count !== undefined)
      : undefined;
    return console ?? surefire ?? (compiled === undefined ? null : Number(compiled));
  },
};

/** A Maven log line without its `[ERROR] ` / `[INFO] ` level. */
function withoutMavenLevel(line: string): string {
  return line.replace(/^\[(?:ERROR|INFO|WARNING|WARN|DEBUG)\] ?/, "");
}

/** javac's errors under Maven's `COMPILATION ERROR :` banner (each printed once there). */
function compileErrors(lines: readonly string[]): Failure[] {
  const start = lines.findIndex((line) => /^COMPILATION ERROR :?$/.test(line.trim()));
  if (start < 0) return [];
  const found: Failure[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\d+ errors?\s*$/.test(line.trim()) || line.startsWith("BUILD FAILURE")) break;
    const error = JAVAC_ERROR.exec(line.trim());
    if (error === null) continue;
    found.push(
      failureOf({
        file: error[1] ?? null,
        line: Number(error[2]),
        column: Number(error[3]),
        message: error[4] ?? "",
      }),
    );
  }
  return found;
}

/** The console launcher's `Failures (N):` list: one block per failed test, indented two spaces. */
function consoleFailures(lines: readonly string[]): Failure[] {
  const start = lines.findIndex((line) => CONSOLE_FAILURES.test(line.trim()));
  if (start < 0) return [];
  const blocks: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "" || /^\S/.test(line)) break;
    if (/^ {2}\S/.test(line)) blocks.push([line.trim()]);
    else blocks.at(-1)?.push(line.trim());
  }
  return blocks.map((block) => {
    // Named as the launcher prints it: `JUnit Jupiter:CartTest:doublesTotals(int, int):[1] 1, 2`.
    const named = block[0] ?? "";
    const thrown = block.findIndex((line) => line.startsWith("=> "));
    return testFailure(named, block.slice(Math.max(thrown, 0)), (line) => line.replace(/^=> /, ""));
  });
}

/** Surefire's per-test reports: a `… <<< FAILURE!` line, the exception's lines, `at` frames. */
function surefireFailures(lines: readonly string[]): Failure[] {
  const found: Failure[] = [];
  let className: string | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const trimmed = (lines[index] ?? "").trim();
    const totals = /^Tests run: .* - in (\S+)$/.exec(trimmed);
    if (totals?.[1] !== undefined) className = totals[1];
    const name = surefireTest(trimmed);
    if (name === null) continue;
    const block: string[] = [];
    for (let cursor = index + 1; cursor < lines.length; cursor += 1) {
      const line = (lines[cursor] ?? "").trim();
      if (line === "" || surefireTest(line) !== null || /^(?:Tests run:|Results:)/.test(line))
        break;
      block.push(line);
    }
    const qualified =
      className === null || name.startsWith(`${className}.`) ? name : `${className}.${name}`;
    found.push(testFailure(qualified, block, (line) => line));
  }
  return found;
}

/**
 * The test a Surefire report line names: `doublesTotals{int, int}[1]  Time elapsed: 0.268 s  <<<
 * FAILURE!` (Surefire 3: `shop.CartTest.x -- Time elapsed: … <<< ERROR!`), else null.
 */
function surefireTest(trimmed: string): string | null {
  if (!trimmed.endsWith("<<< FAILURE!") && !trimmed.endsWith("<<< ERROR!")) return null;
  const at = trimmed.indexOf(" Time elapsed: ");
  if (at <= 0) return null;
  const name = trimmed.slice(0, at).trimEnd();
  return (name.endsWith(" --") ? name.slice(0, -3) : name).trimEnd() || null;
}

/**
 * A Java test's exception lines — the exception, then `at` frames, as Surefire prints them and
 * a JUnit XML `<failure>` body holds them — read as `junit5Parser` reads them, plus the frame of
 * `testClass` (or a class nested in it) as the test's own place when the failure is placed
 * elsewhere (in the code under test).
 */
export function javaTestFailure(
  test: string,
  lines: readonly string[],
  testClass: string,
): Failure {
  const block = lines.map((line) => line.trim());
  const failure = testFailure(test, block, (line) => line);
  const own = block
    .map((line) => FRAME.exec(line))
    .find((match) => match?.[1] === testClass || match?.[1]?.startsWith(`${testClass}$`));
  if (own?.[1] === undefined || failure.file === null) return failure;
  const place = { file: sourcePath(own[1], own[3] ?? ""), line: Number(own[4]) };
  return place.file === failure.file && place.line === failure.line
    ? failure
    : { ...failure, testLocation: place };
}

/** A failed test from its exception's lines: the first is the message, frames say where. */
function testFailure(
  test: string,
  block: readonly string[],
  first: (line: string) => string,
): Failure {
  const message = first(block[0] ?? "");
  const frame = block
    .map((line) => FRAME.exec(line))
    .find((match) => match !== null && !FRAMEWORK.test(match[1] ?? ""));
  const values = javaValues(message);
  return failureOf({
    test,
    ...(frame?.[1] === undefined
      ? {}
      : { file: sourcePath(frame[1], frame[3] ?? ""), line: Number(frame[4]) }),
    ...(values ?? {}),
    message: truncateCodePoints(message, MAX_FIELD_LENGTH),
  });
}

/**
 * `shop.CartTest$WhenEmpty` and `CartTest.java` as the source path in Maven's and Gradle's
 * standard layout: `src/test/java/shop/CartTest.java` for a test class (`…Test`, `…Tests`,
 * `…TestCase`, `…IT`, `Test…`), `src/main/java/shop/Cart.java` for the others; `kotlin` or
 * `scala` for those languages' files.
 */
function sourcePath(className: string, file: string): string {
  const segments = className.split(".");
  segments.pop();
  const base = file.replace(/\.\w+$/, "");
  const test = /(?:Tests?|TestCase|IT)$|^Test[A-Z]/.test(base);
  const language = file.endsWith(".kt") ? "kotlin" : file.endsWith(".scala") ? "scala" : "java";
  return ["src", test ? "test" : "main", language, ...segments, file].join("/");
}

/**
 * `expected: <2> but was: <4>` (JUnit 5), `expected:<2> but was:<4>` (JUnit 4), each side as
 * printed, its angle brackets kept (`<bar>`, `<=bar>`: the brackets are JUnit's quotes, and show
 * where a value starts and ends); values printed with their class (`expected:
 * java.lang.Long@7b46<123> but was: java.lang.String@2e8c<123>`) are their value alone, a
 * `String`'s quoted so that `123` and `"123"` stay apart.
 */
function javaValues(message: string): { expected: string; received: string } | null {
  // Found by position: a pattern with a lazy run before ` but was:` costs quadratic time on a
  // message of many `expected:` and no `but was:`.
  const start = message.indexOf("expected:");
  const but = message.indexOf(" but was:", start);
  if (start < 0 || but < 0 || message.slice(start).includes("\n")) return null;
  const side = (from: number, to?: number): string => message.slice(from, to).replace(/^ /, "");
  const value = (printed: string): string => {
    const typed = /^([\w$.]+)@[\da-f]+<(.*)>$/.exec(printed);
    if (typed?.[2] !== undefined)
      return typed[1] === "java.lang.String" ? JSON.stringify(typed[2]) : typed[2];
    return printed;
  };
  return cappedValues(
    value(side(start + "expected:".length, but)),
    value(side(but + " but was:".length)),
  );
}
