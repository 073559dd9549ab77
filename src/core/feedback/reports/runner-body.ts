import type { Failure } from "../feedback.js";
import { javaTestFailure } from "../parsers/junit5.js";
import { phpunitReportFailure } from "../parsers/phpunit.js";

/** The attributes of a JUnit `<testcase>` that tell whose report its failure body is. */
export interface JunitCase {
  /** `classname`: a dotted class for JUnit tools (`org.shop.CartTest`), `Shop.CartTest` for PHPUnit. */
  readonly classname: string;
  /** PHPUnit's own `class` attribute, the class as PHP writes it (`Shop\CartTest`). */
  readonly phpClass: string | null;
  readonly name: string;
  /** The test's file as its attributes give it (PHPUnit's `file`), else null. */
  readonly file: string | null;
}

/** A dotted Java/Kotlin class name: `org.shop.CartTest`, `shop.CartTest$WhenEmpty`. */
const JAVA_CLASS = /^[\w$]+(?:\.[\w$]+)+$/;

/**
 * A failure body read the way its runner's console report is, or null when it is no runner's
 * own. A JUnit XML body is often the console's report of the same failure, which names and
 * places it better than the attributes: PHPUnit's first line names the test in full
 * (`Shop\CartTest::testTotal with data set #2 ('a', 'b')`, where `name` lacks the data) and its
 * frames end at the failing assertion (`line` is the method's); a Java test's is the exception
 * and its `at` frames, whose first outside the JDK and the frameworks is the failing line in
 * the test class's file (the attributes give no file), the test named `package.Class.method` as
 * Surefire prints it, the invocation's `[1]` kept. A body with no frame of its runner's shape
 * is left to the general reading.
 */
export function runnerBodyFailure(testcase: JunitCase, body: string): Failure | null {
  const [first = "", ...rest] = body.split("\n");
  const { classname, phpClass, name } = testcase;
  if (phpClass !== null && first.trim().startsWith(`${phpClass}::`)) {
    return withTestFrame(phpunitReportFailure(first.trim(), rest), rest, testcase.file);
  }
  if (!JAVA_CLASS.test(classname)) return null;
  const test = name.startsWith(`${classname}.`) ? name : `${classname}.${name}`;
  const failure = javaTestFailure(test, [first, ...rest], classname);
  return failure.file === null ? null : failure;
}

/**
 * `failure` with the frame in the test's own `file` (PHPUnit lists frames innermost first, the
 * test's own last) as its test location when the failure is placed elsewhere: the code under
 * test threw, the test called it there.
 */
function withTestFrame(failure: Failure, lines: readonly string[], file: string | null): Failure {
  if (file === null || failure.file === null) return failure;
  const line = lines
    .map((text) => text.trim())
    .filter((text) => text.startsWith(`${file}:`))
    .map((text) => Number(text.slice(file.length + 1)))
    .find((number) => Number.isSafeInteger(number) && number > 0);
  return line === undefined || (failure.file === file && failure.line === line)
    ? failure
    : { ...failure, testLocation: { file, line } };
}
