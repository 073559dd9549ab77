import { truncateCodePoints } from "../clean/code-points.js";
import type { Failure, TestOutputParser } from "../feedback.js";
import { failureFromReport } from "../extractor/general-extractor.js";
import { launcherName } from "./launcher-name.js";
import { pytestNodeId } from "./pytest-node-id.js";
import { runnerBodyFailure } from "./runner-body.js";
import { elementText, nextTag, type XmlTag } from "./xml-scanner.js";

/** How a JUnit test's suite path is joined into its full name (Vitest's and node:test's own). */
const JUNIT_NAME_SEPARATOR = " > ";

/** Longest failure text read; the facts are at its start, the rest is stack. */
const MAX_BODY_LENGTH = 20_000;

/** Suite names reporters give the whole run, not a suite the user wrote. */
const RUN_SUITE_NAMES: ReadonlySet<string> = new Set([
  "pytest",
  "vitest tests",
  "Mocha Tests",
  "jest tests",
  "root",
]);

/**
 * Generic JUnit XML (Vitest `--reporter=junit`, node:test `--test-reporter=junit`, jest-junit,
 * pytest `--junitxml`, Maven/Gradle, Go and cargo converters): one failure per `<testcase>`
 * holding a `<failure>` or `<error>`. The full name is the enclosing `<testsuite>` names that
 * the user wrote (not file paths, not the run's root) and the test's `name`; file and line come
 * from the test's attributes (`file`, `line`, or a path-like `classname`), else from the first
 * user frame of the failure text, whose values are read as printed. A body that is its runner's
 * console report (PHPUnit's, a Java test's stack trace) is read as that runner's parser reads
 * it, which names and places the failure better (see `runnerBodyFailure`); `<system-out>` and
 * `<system-err>` are never read as the failure.
 */
export const junitParser: TestOutputParser = {
  name: "junit",
  detect: (output) => isJunit(output),
  parse: (output) => junitFailures(output),
  reportedFailures: (output) => junitReportedFailures(output),
};

/** The root `<testsuites failures="5" errors="1">` totals (6), or null when it states none. */
export function junitReportedFailures(xml: string): number | null {
  const start = xml.indexOf("<testsuites");
  if (start < 0) return null;
  const root = xml.slice(start, xml.indexOf(">", start) + 1);
  const failures = /\sfailures="(\d+)"/.exec(root)?.[1];
  const errors = /\serrors="(\d+)"/.exec(root)?.[1];
  return failures === undefined && errors === undefined
    ? null
    : Number(failures ?? 0) + Number(errors ?? 0);
}

/** Whether the output holds a JUnit XML report. */
export function isJunit(output: string): boolean {
  return output.includes("<testsuite") && output.includes("<testcase");
}

/** The open `<testsuite>` and `<testcase>` elements around the scanner. */
interface Context {
  readonly suites: { name: string; file: string | null; run: string }[];
  testcase: XmlTag | null;
  /** How many failures there were when the open test case started. */
  caseStart: number;
}

/** The failing test cases of a JUnit XML report (see `junitParser`). */
export function junitFailures(xml: string): Failure[] {
  const failures: Failure[] = [];
  const context: Context = { suites: [], testcase: null, caseStart: 0 };
  let skipped = false;
  let tag = nextTag(xml, 0);
  while (tag !== null) {
    let from = tag.end;
    if (tag.name === "testsuite") {
      if (tag.closing) context.suites.pop();
      else if (!tag.selfClosing) context.suites.push(suiteOf(tag));
    } else if (tag.name === "testcase") {
      // A skipped or todo case (node:test writes `<skipped type="todo">` beside the failure
      // of a todo test) never fails the run, whatever else it holds.
      context.testcase = tag.closing || tag.selfClosing ? null : tag;
      context.caseStart = failures.length;
      skipped = false;
    } else if (tag.name === "skipped" && !tag.closing) {
      skipped = context.testcase !== null;
      if (skipped) failures.length = context.caseStart;
    } else if (tag.name === "system-out" && !tag.closing && !tag.selfClosing) {
      const output = elementText(xml, tag.name, tag.end);
      if (context.testcase !== null) renameLaunched(failures, context, output.text);
      from = output.end;
    } else if ((tag.name === "failure" || tag.name === "error") && !tag.closing) {
      const body = tag.selfClosing
        ? { text: "", end: tag.end }
        : elementText(xml, tag.name, tag.end);
      if (context.testcase !== null && !skipped)
        failures.push(caseFailure(context, tag, body.text));
      from = body.end;
    }
    tag = nextTag(xml, from);
  }
  return failures;
}

/**
 * The open test case's failures named as the JUnit console launcher prints them, when its
 * `<system-out>` says how (see `launcherName`): its console and its report then name a test
 * alike.
 */
function renameLaunched(failures: Failure[], context: Context, output: string): void {
  const name = launcherName(context.suites.at(-1)?.name ?? "", output);
  if (name === null) return;
  for (let index = context.caseStart; index < failures.length; index += 1) {
    const failure = failures[index];
    if (failure !== undefined) failures[index] = { ...failure, test: name };
  }
}

/** A `<testsuite>` as a name segment (empty when it names the file or the run), its file, the run's name. */
function suiteOf(tag: XmlTag): { name: string; file: string | null; run: string } {
  const name = tag.attributes.get("name") ?? "";
  const file = tag.attributes.get("file") ?? (looksLikePath(name) ? name : null);
  const run = RUN_SUITE_NAMES.has(name) ? name : "";
  return { name: looksLikePath(name) || run !== "" ? "" : name, file, run };
}

/** One failing test case from its `<failure>`/`<error>` element. */
function caseFailure(context: Context, tag: XmlTag, body: string): Failure {
  const testcase = context.testcase;
  const attribute = (name: string): string | undefined => testcase?.attributes.get(name);
  const classname = attribute("classname") ?? "";
  const suites = context.suites.map((suite) => suite.name).filter((name) => name !== "");
  const name = attribute("name") ?? "";
  // pytest's report (its run suite is named `pytest`) spells the node id its console prints.
  const nodeId = context.suites.some((suite) => suite.run === "pytest")
    ? pytestNodeId(classname, name, attribute("file") ?? null)
    : null;
  const test =
    nodeId ?? [...suites, qualifiedName(classname, name, suites)].join(JUNIT_NAME_SEPARATOR);
  const file =
    attribute("file") ??
    (looksLikePath(classname) ? classname : null) ??
    context.suites.findLast((suite) => suite.file !== null)?.file ??
    null;
  const message = tag.attributes.get("message") ?? "";
  const type = tag.attributes.get("type") ?? "";
  // The body is the fuller story (stack, diff); the message attribute is its first line.
  // node:test wraps an error that has a diff in brackets: `[Error [ERR_TEST_FAILURE]: …] {`.
  const trimmed = unwrapped(body.trim());
  const text = truncateCodePoints(trimmed === "" ? message : trimmed, MAX_BODY_LENGTH);
  const declared = Number(attribute("line"));
  const declaredLine = Number.isSafeInteger(declared) && declared > 0 ? declared : null;
  const own = runnerBodyFailure(
    { classname, phpClass: attribute("class") ?? null, name, file: attribute("file") ?? null },
    text,
  );
  if (own !== null) {
    // The runner's own frames place it where it failed; the attributes, where it is declared.
    return own.file === null ? { ...own, file, line: file === null ? null : declaredLine } : own;
  }
  const read = failureFromReport(test, file, text);
  // A declared line (pytest, jest-junit) is where the test is; without one, the first user frame.
  const located = declaredLine !== null ? { file, line: declaredLine } : read;
  return {
    ...read,
    file: located.file,
    line: located.line,
    message: read.message !== "" ? read.message : firstLine(message) || type,
  };
}

/**
 * The test's name under its `classname` when that names a suite the rest does not (Mocha's
 * `xunit` puts the `describe` path there, Maven the class): `com.a.CartTest.sums` for a dotted
 * class, as JUnit tools print it, `cart > sums` for a suite title. Not when the classname is a
 * file, the run, an enclosing suite, or already part of the name (jest-junit repeats it).
 */
function qualifiedName(classname: string, name: string, suites: readonly string[]): string {
  if (
    classname === "" ||
    classname === "test" ||
    looksLikePath(classname) ||
    RUN_SUITE_NAMES.has(classname) ||
    suites.includes(classname) ||
    name.includes(classname)
  ) {
    return name;
  }
  const dotted = classname.includes(".") && !/\s/.test(classname);
  return `${classname}${dotted ? "." : JUNIT_NAME_SEPARATOR}${name}`;
}

/** Whether a name is a source path (`test/a.test.ts`, `tests/test_x.py`) rather than a suite. */
function looksLikePath(name: string): boolean {
  return name.includes("/") || name.includes("\\") || /\.[cm]?[jt]sx?$|\.py$/.test(name);
}

/**
 * A body without the brackets node:test's inspect wraps an error in when it has properties:
 * `[Error [ERR_TEST_FAILURE]: boom] {` → `Error [ERR_TEST_FAILURE]: boom` on the first line, so
 * the same error reads the same with or without them.
 */
function unwrapped(body: string): string {
  if (!/^\[[\w$.]/.test(body)) return body;
  const end = body.indexOf("\n");
  const first = end < 0 ? body : body.slice(0, end);
  const rest = end < 0 ? "" : body.slice(end);
  return first.slice(1).replace(/\] \{$/, "") + rest;
}

/** The first line of a text. */
function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return (end < 0 ? text : text.slice(0, end)).trim();
}
