import { valuesFromMessage } from "../extractor/assertion-values.js";
import { numberAfter, numberBefore } from "./reported-count.js";
import { firstChangedPair } from "./diff-pair.js";
import type { Failure, TestOutputParser } from "../feedback.js";
import {
  finishDraft,
  newDraft,
  setMessage,
  type FailureDraft,
} from "../extractor/failure-draft.js";
import { logLines } from "../clean/log-lines.js";
import {
  frameLocation,
  isInternalPath,
  isTestPath,
  type SourceLocation,
} from "../extractor/stack-frames.js";
import { bareAssertionMessage, CHAIN_MARKER, isUserPythonFile } from "./python-traceback.js";
import { isJunit, junitFailures } from "../reports/junit.js";
import { elementText, nextTag } from "../reports/xml-scanner.js";
import { failureOf } from "../failure-of.js";
import { codePointLength } from "../clean/code-points.js";
import { sidesAsCalled, withoutSequenceLabel } from "./python-sides.js";

/** pytest's session banners: `=== test session starts ===`, `=== FAILURES ===`, `=== ERRORS ===`. */
const BANNER =
  /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info|warnings summary) =+$/;

/** The `-q` closing line: `2 failed, 1 passed in 0.09s`, `1 error in 0.68s`. */
const QUIET_TOTALS =
  /^=* ?\d+ (?:failed|passed|errors?|skipped)(?:, \d+ [a-z]+)* in \d+(?:\.\d+)?s(?: \(\S+\))? ?=*$/;

/**
 * The short summary's `FAILED tests/a.py::Class::test - message` (or `ERROR tests/a.py`), a
 * doctest file's too (`FAILED README.rst::README.rst`).
 */
const SUMMARY_LINE = /^(FAILED|ERROR) (\S+\.(?:py|rst|txt|md)(?:::\S+)?)(?: - (.*))?$/;

/** A traceback location: `tests/a.py:9: AssertionError`, `tests/a.py:8: `, `a.py:1: in <module>`. */
const LOCATION_LINE = /^(\S+\.py):(\d+):(?:\s|$)/;

/** A pytest failure section's report, from its `___ title ___` header to the next. */
interface Section {
  readonly title: string;
  readonly lines: string[];
}

/** A `--tb=line` report: the crash's place and words, one line per failure with no section. */
interface LineReport {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  /** The function a stack dump shows running, when that is all that names the test. */
  readonly test?: string | undefined;
}

/** What the console output holds, read in one pass. */
interface Reading {
  readonly sections: Section[];
  /** The short summary: node id → message. */
  readonly summary: Map<string, string>;
  /** The summary's `FAILED` node ids in order, which is the order of the `FAILURES` reports. */
  readonly failedIds: string[];
  readonly lineReports: LineReport[];
  /** `rootdir: /path`, which absolute paths in tracebacks start with. */
  rootdir: string | null;
  /** Where a run cut short (Ctrl-C, a CI job's timeout sending SIGINT) was: `!!! KeyboardInterrupt !!!`. */
  interrupt: LineReport | null;
}

/**
 * pytest's console output (default, `-q`, `-v`, any `--tb` style) read as failures whose test is
 * the full node id (`tests/test_auth.py::TestLogin::test_user_id`). A module that failed to
 * collect is a failure named by its path. A `--junitxml` report is read by the JUnit parser and
 * its tests renamed to node ids.
 */
export const pytestParser: TestOutputParser = {
  name: "pytest",
  detect: (output) =>
    isJunit(output)
      ? output.includes('<testsuite name="pytest"')
      : logLines(output).some((line) => {
          const trimmed = line.trim();
          return BANNER.test(trimmed) || SUMMARY_LINE.test(trimmed) || QUIET_TOTALS.test(trimmed);
        }),
  parse: (output) => (isJunit(output) ? junitNodeFailures(output) : parsePytest(logLines(output))),
  reportedFailures: (output) => {
    if (isJunit(output)) {
      // The report's first `<testsuite failures="2" errors="1" …>`.
      const open = output.indexOf("<testsuite ");
      const close = output.indexOf(">", open);
      const suite = open < 0 ? "" : output.slice(open, close < 0 ? undefined : close);
      const attribute = (name: string): number | null => numberAfter(suite, ` ${name}="`);
      const failures = attribute("failures");
      return failures === null ? null : failures + (attribute("errors") ?? 0);
    }
    for (const line of logLines(output).reverse()) {
      const trimmed = line.trim();
      if (!QUIET_TOTALS.test(trimmed)) continue;
      const count = (word: string): number => numberBefore(trimmed, word) ?? 0;
      return count("failed") + (numberBefore(trimmed, "errors") ?? count("error"));
    }
    return null;
  },
};

/**
 * A pytest JUnit report's failures named as pytest names them: the report says
 * `classname="tests.test_a.TestX" name="test_y"`, the traceback says the file, and together they
 * give `tests/test_a.py::TestX::test_y`.
 */
function junitNodeFailures(xml: string): Failure[] {
  const classnames = failingClassnames(xml);
  return junitFailures(xml).map((failure, index) => {
    const classname = classnames[index] ?? "";
    const { file } = failure;
    // The JUnit reader names a test of pytest's run by its node id already.
    if (failure.test?.includes("::") === true) return failure;
    // The JUnit reader qualifies the name by its class; the node id spells the class as a path.
    const test = failure.test?.startsWith(`${classname}.`)
      ? failure.test.slice(classname.length + 1)
      : failure.test;
    if (test === null || file === null || !file.endsWith(".py")) return failure;
    const module = file.slice(0, -".py".length).replaceAll("/", ".");
    if (classname !== module && !classname.startsWith(`${module}.`)) return failure;
    const classes = classname.slice(module.length + 1).replaceAll(".", "::");
    return { ...failure, test: [file, ...(classes === "" ? [] : [classes]), test].join("::") };
  });
}

/** The `classname` of each failing `<testcase>`, one per `<failure>`/`<error>`, in report order. */
function failingClassnames(xml: string): string[] {
  const classnames: string[] = [];
  // Null outside a `<testcase>`, where the JUnit reader skips a stray `<failure>` too.
  let classname: string | null = null;
  let tag = nextTag(xml, 0);
  while (tag !== null) {
    let from = tag.end;
    if (tag.name === "testcase") {
      classname = tag.closing || tag.selfClosing ? null : (tag.attributes.get("classname") ?? "");
    } else if ((tag.name === "failure" || tag.name === "error") && !tag.closing) {
      if (classname !== null) classnames.push(classname);
      if (!tag.selfClosing) from = elementText(xml, tag.name, tag.end).end;
    }
    tag = nextTag(xml, from);
  }
  return classnames;
}

/**
 * Failures from the `FAILURES`/`ERRORS` sections, named and completed by the short summary;
 * paths under the `rootdir` made relative, as pytest prints them in its default traceback.
 */
function parsePytest(lines: readonly string[]): Failure[] {
  const reading = split(lines);
  const { sections, summary } = reading;
  // Sections of tests with one name in several files take their summary ids one each.
  const claimed = new Set<string>();
  const failures = sections.map((section) => sectionFailure(section, summary, claimed));
  const named = new Set(failures.map((failure) => failure.test));
  const lineReports = lineReportsById(reading);
  // `--tb=no` and `--tb=line` print no sections: the summary (and `--tb=line`'s lines) is all there is.
  for (const [nodeId, message] of summary) {
    if (!named.has(nodeId)) failures.push(summaryFailure(nodeId, message, lineReports.get(nodeId)));
  }
  const { rootdir } = reading;
  const root = rootdir === null || rootdir.endsWith("/") ? rootdir : `${rootdir}/`;
  const relative = (file: string): string =>
    root !== null && file.startsWith(root) ? file.slice(root.length) : file;
  // An interrupted run prints no report of the test it stopped, only where it was.
  if (reading.interrupt !== null) {
    const { test, ...where } = reading.interrupt;
    const name = test === undefined ? null : `${relative(where.file)}::${test}`;
    failures.push(failureOf({ ...where, test: name }));
  }
  return failures.map((failure) => ({
    ...failure,
    file: failure.file === null ? null : relative(failure.file),
  }));
}

/** `--tb=line`'s reports by the node id they belong to, when there is one per `FAILED` test. */
function lineReportsById(reading: Reading): Map<string, LineReport> {
  const { failedIds, lineReports } = reading;
  if (lineReports.length !== failedIds.length) return new Map();
  return new Map(failedIds.map((id, index) => [id, lineReports[index] as LineReport]));
}

/** The report sections, the short summary and `--tb=line`'s reports of the output. */
function split(lines: readonly string[]): Reading {
  const reading: Reading = {
    sections: [],
    summary: new Map(),
    failedIds: [],
    lineReports: [],
    rootdir: null,
    interrupt: null,
  };
  let current: Section | null = null;
  let inFailures = false;
  // The terminal's width as pytest's last banner shows it; null before any (a log's tail).
  let width: number | null = null;
  let interrupted = false;
  let timedOut = false;
  // Captured output (`--- Captured stdout call ---`) is the program talking, never a report.
  let muted = false;
  // `-rA`/`-rP` print passed tests' captured output in sections under a `PASSES` banner.
  let passes = false;
  for (const line of lines) {
    const trimmed = line.trim();
    const title = sectionTitle(line, width);
    if (title !== null && passes) {
      current = null;
      continue;
    }
    if (title !== null) {
      current = { title, lines: [] };
      reading.sections.push(current);
      muted = false;
      continue;
    }
    if (/^=+ .* =+$/.test(trimmed)) {
      current = null;
      inFailures = /^=+ FAILURES =+$/.test(trimmed);
      passes = /^=+ PASSES =+$/.test(trimmed);
      // Only pytest's own banners tell its width: a test may print a line of `=` too.
      if (line === trimmed && BANNER.test(trimmed)) width = codePointLength(trimmed);
      continue;
    }
    if (/^!+ KeyboardInterrupt !+$/.test(trimmed)) {
      interrupted = true;
      continue;
    }
    if (/^\++ Timeout \++$/.test(trimmed)) {
      // pytest-timeout's thread method dumps the stacks between two banners, then kills pytest.
      timedOut = !timedOut;
      continue;
    }
    if (timedOut) {
      const frame = trimmed.startsWith('File "') ? frameLocation(trimmed) : null;
      if (frame !== null && isUserPythonFile(frame.file)) {
        reading.interrupt = {
          ...frame,
          message: "Timeout",
          test: /, in (\w+)$/.exec(trimmed)?.[1],
        };
      }
      continue;
    }
    const report = LINE_REPORT.exec(line);
    if (interrupted && report?.[1] !== undefined && report[3] !== undefined) {
      reading.interrupt ??= { file: report[1], line: Number(report[2]), message: report[3] };
      continue;
    }
    reading.rootdir ??= /^rootdir: ([^\s,]+)/.exec(trimmed)?.[1] ?? null;
    const summaryLine = SUMMARY_LINE.exec(trimmed);
    if (summaryLine?.[2] !== undefined && current === null) {
      reading.summary.set(summaryLine[2], summaryLine[3] ?? "");
      if (summaryLine[1] === "FAILED") reading.failedIds.push(summaryLine[2]);
      continue;
    }
    if (/^-+ Captured \w+ \w+ -+$/.test(trimmed)) muted = true;
    else if (current !== null && !muted) current.lines.push(line);
    else if (current === null && inFailures) {
      if (report?.[1] !== undefined && report[3] !== undefined) {
        reading.lineReports.push({ file: report[1], line: Number(report[2]), message: report[3] });
      }
    }
  }
  return reading;
}

/** A section header's parts: the runs of `_` either side of the title. */
const SECTION_HEADER = /^(_+) (\S(?:.*\S)?) (_+)$/;

/**
 * The title of a failure section's header, or null for any other line. pytest writes a header
 * as it writes a banner (`TerminalWriter.sep`): the title between two equal runs of `_` as long
 * as fit the terminal's width, the right one a `_` longer when that fills the line exactly. So a
 * header is as wide as the banners (`=== FAILURES ===`), unless its title is too long for that:
 * then each run is one `_` and the line overflows (`_ test_parameterize[Random text with *(bad)*
 * …] _`). Before any banner (a log's tail) the width is unknown and the runs alone decide. A line
 * a test printed in its captured output is a header only when it is written exactly so.
 */
function sectionTitle(line: string, width: number | null): string | null {
  const parts = SECTION_HEADER.exec(line);
  if (parts?.[1] === undefined || parts[2] === undefined || parts[3] === undefined) return null;
  const [left, title, right] = [parts[1].length, parts[2], parts[3].length];
  // A traceback's separator between frames, `_ _ _ …`, is no title.
  if (/^[_ ]+$/.test(title) || (right !== left && right !== left + 1)) return null;
  const length = codePointLength(line);
  if (width === null || length === width) return title;
  return left === 1 && right === 1 && length > width ? title : null;
}

/**
 * Whether a chained exception's later traceback (`later`, after the `chain` line) is what failed,
 * not the first error (`first`, its `E` line). A later failed assertion is the test's own check,
 * made while it handled the first (`except E as e: assert e.args[0] == …`); a new error raised
 * while handling one (`During handling…`: jinja's `int(float(value))` raising `OverflowError`
 * in the `except ValueError`) is the one that escaped. One that restates the first error's words
 * only wraps it (`raise ParseError(e)`), and one raised `from` it says what the code was doing,
 * while the first says what broke and where.
 */
function failsLater(first: string, chain: string, later: readonly string[]): boolean {
  if (later.some((line) => FAILED_ASSERTION.test(line))) return true;
  if (!chain.startsWith("During handling")) return false;
  const next =
    later
      .find((line) => /^E\s+\S/.test(line))
      ?.slice(1)
      .trim() ?? "";
  const words = (error: string): string => error.replace(/^[\w.]+: /, "");
  return next !== "" && !next.includes(words(first));
}

/** An `E` line of a failed assertion: pytest's rewritten `assert …` or a bare `AssertionError`. */
const FAILED_ASSERTION = /^E\s+(?:assert |AssertionError\b)/;

/** `--tb=line`'s `/root/tests/test_a.py:10: assert 5 == 4`, unindented. */
const LINE_REPORT = /^(\S+\.py):(\d+): (\S.*)$/;

/** One section as a failure: the first `E` line is the message, the crash line says where. */
function sectionFailure(
  section: Section,
  summary: ReadonlyMap<string, string>,
  claimed: Set<string>,
): Failure {
  const collecting = /^ERROR collecting (\S+)$/.exec(section.title);
  const phase = /^ERROR at (?:setup|teardown) of (\S+)$/.exec(section.title);
  // `[doctest] pkg.mod.fn`: the node id is `pkg/mod.py::pkg.mod.fn`, dots kept.
  const doctest = /^\[doctest\] (\S+)$/.exec(section.title)?.[1];
  const name = collecting?.[1] ?? doctest ?? nodeTail(phase?.[1] ?? section.title);
  const draft = newDraft("test", name, null);
  const errorLines: string[] = [];
  // Unstripped, for the diff's lines: their indentation can be the whole difference.
  const rawErrorLines: string[] = [];
  // `--tb=native` prints Python's own traceback: the error is the unindented text after the frames.
  let nativeLines: string[] = [];
  const places: SourceLocation[] = [];
  // Each place's source line marked `>`: a `def` there is a decorator's call of the test itself.
  const calls: string[] = [];
  let marked = "";
  for (const [index, line] of section.lines.entries()) {
    if (CHAIN_MARKER.test(line.trim()) && errorLines.length > 0) {
      if (!failsLater(errorLines[0] ?? "", line.trim(), section.lines.slice(index + 1))) break;
      for (const gathered of [errorLines, rawErrorLines, nativeLines, places, calls])
        gathered.length = 0;
      marked = "";
      continue;
    }
    if (line.startsWith(">")) marked = line.slice(1).trim();
    if (/^E(?:\s|$)/.test(line)) {
      errorLines.push(line.slice(1).trim());
      rawErrorLines.push(line.slice(1));
      continue;
    }
    const trimmed = line.trim();
    const frame = trimmed.startsWith('File "') ? frameLocation(trimmed) : null;
    if (frame !== null) nativeLines = [];
    else if (line !== "" && line === line.trimStart() && trimmed !== NATIVE_HEADER) {
      nativeLines.push(trimmed);
    }
    const match = LOCATION_LINE.exec(trimmed);
    const location =
      frame ?? (match?.[1] === undefined ? null : { file: match[1], line: Number(match[2]) });
    // A doctest's example is `File "<doctest README.rst[15]>"`: no file to open.
    if (location === null || !isUserPythonFile(location.file)) continue;
    places.push(location);
    calls.push(marked);
  }
  const testFile = places[0]?.file ?? null;
  const place = failedPlace(places, calls, errorLines);
  if (place !== undefined) {
    draft.file = place.file;
    draft.line = place.line;
  }
  if (doctest !== undefined) readDoctest(section.lines, draft);
  if (errorLines.length === 0 && doctest === undefined) errorLines.push(...nativeLines);
  readSyntaxError(errorLines, draft);
  setMessage(draft, firstErrorLine(errorLines));
  // The section names the test without its file; the summary's id with the traceback's file wins.
  const candidates = [...summary].filter(
    ([id]) => (id === name || id.endsWith(`::${name}`)) && !claimed.has(id),
  );
  const summaryMessage =
    candidates.find(([id]) => testFile !== null && id.startsWith(`${testFile}::`)) ?? candidates[0];
  if (summaryMessage !== undefined && collecting === null) claimed.add(summaryMessage[0]);
  draft.test = collecting !== null ? name : (summaryMessage?.[0] ?? qualified(testFile, name));
  const values =
    comparedValues(draft.message, errorLines, rawErrorLines, marked) ??
    (draft.message === "AssertionError" ? comparedArguments(section.lines) : null);
  if (values !== null) {
    draft.expected = values.expected;
    draft.received = values.received;
  } else {
    // pytest rewrites asserts in test modules only: one in a helper module (`tests/base.py`)
    // raises a bare AssertionError, and the statement it failed is all that says what it checked.
    draft.message = bareAssertionMessage(draft.message, marked);
  }
  if (draft.message === "") setMessage(draft, summaryMessage?.[1] ?? "");
  return finishDraft(draft);
}

/**
 * The first `E` line, joined to the next when it names the error and stops at its colon: `assert
 * x, msg` with a message that starts on a new line prints `AssertionError: ` and the words below.
 */
function firstErrorLine(errorLines: readonly string[]): string {
  const lines = errorLines.filter((line) => line !== "");
  const [first = "", next] = lines;
  return /^[\w.]+:$/.test(first) && next !== undefined ? `${first} ${next}` : first;
}

/**
 * Where a section's failure shows, of its traceback's user places (outermost first, the test
 * function's own first): the last, pytest's own "reprcrash" — except for an assertion made in a
 * helper of the tests (a function of a test file or of the test itself, or of a tests
 * directory), which shows at the test's line that called it.
 */
function failedPlace(
  places: readonly SourceLocation[],
  calls: readonly string[],
  errorLines: readonly string[],
): SourceLocation | undefined {
  // Hypothesis's `@given` calls the test itself: its first place is the `def` line, no call.
  const decorated = /^(?:async )?def /.test(calls[0] ?? "") && places.length > 1;
  const [own] = decorated ? places.slice(1) : places;
  const crash = places.at(-1);
  const assertion = /^(?:assert\s|AssertionError\b)/.test(errorLines[0] ?? "");
  if (own === undefined || crash === undefined || !assertion) return crash;
  return isTestPath(own.file) && isTestPath(crash.file) ? own : crash;
}

/**
 * Python's display of a `SyntaxError` in a module the test imports, under `E`: `File "path",
 * line 102`, the source and its caret, then `SyntaxError: '(' was never closed`. The error's
 * line is the message and the file it names the place: the test's import line only led there.
 */
function readSyntaxError(errorLines: readonly string[], draft: FailureDraft): void {
  const place = errorLines[0]?.startsWith('File "') === true ? frameLocation(errorLines[0]) : null;
  const error = errorLines.find((line) => /^\w*(?:Error|Exception): \S/.test(line));
  if (place === null || error === undefined) return;
  draft.file = place.file;
  draft.line = place.line;
  setMessage(draft, error);
}

/**
 * A doctest section: the failing example's `Expected:`/`Got:` blocks as the values, and the
 * report's own words as the message: the raised exception's line below `UNEXPECTED EXCEPTION:
 * ValueError('…')` (else that line itself), else the kind of failure the location line names
 * (`boltons/iterutils.py:293: DocTestFailure`).
 */
function readDoctest(lines: readonly string[], draft: FailureDraft): void {
  const blocks: { expected: string[]; got: string[] } = { expected: [], got: [] };
  let part: "expected" | "got" | null = null;
  const raised = raisedLine(lines);
  if (raised !== undefined) setMessage(draft, raised);
  for (const line of lines) {
    const trimmed = line.trim();
    // A text file's doctest (`README.md:239: DocTestFailure`) has no Python frame to place it.
    const document = DOCUMENT_LOCATION.exec(trimmed);
    if (document?.[1] !== undefined && draft.file === null) {
      draft.file = document[1];
      draft.line = Number(document[2]);
      setMessage(draft, document[3] ?? "");
    }
    if (trimmed === "Expected:" || trimmed === "Got:")
      part = trimmed === "Got:" ? "got" : "expected";
    else if (part !== null && line.startsWith("    ")) blocks[part].push(line.slice(4));
    else part = null;
    // An example that printed nothing: doctest's `Got nothing` is the received side in words.
    if (trimmed === "Got nothing") setMessage(draft, trimmed);
    const unexpected = /^UNEXPECTED EXCEPTION: (.+)$/.exec(trimmed)?.[1];
    if (unexpected !== undefined) setMessage(draft, `UNEXPECTED EXCEPTION: ${unexpected}`);
    const kind = LOCATION_LINE.test(trimmed) ? /: (\w+)$/.exec(trimmed)?.[1] : undefined;
    if (kind !== undefined) setMessage(draft, kind);
  }
  if (blocks.expected.length > 0) draft.expected = blocks.expected.join("\n");
  if (blocks.got.length > 0) draft.received = blocks.got.join("\n");
  const differences = doctestDiffLines(lines);
  if (differences !== null && blocks.expected.length === 0 && blocks.got.length === 0) {
    draft.expected = differences.expected;
    draft.received = differences.received;
  }
}

/** A doctest of a text file: its location line, `/root/README.md:239: DocTestFailure`. */
const DOCUMENT_LOCATION = /^(\S+\.(?:rst|txt|md)):(\d+): (\w+)$/;

/**
 * The first changed pair of a doctest's diff (`REPORT_UDIFF`'s `Differences (unified diff with
 * -expected +actual):`, or `REPORT_NDIFF`'s), which doctest prints instead of `Expected:`/`Got:`:
 * the first `-` line below it and the `+` line after, without their marks.
 */
function doctestDiffLines(lines: readonly string[]): { expected: string; received: string } | null {
  const header = lines.findIndex((line) =>
    /^Differences \((?:unified diff|ndiff) with -expected \+actual\):$/.test(line.trim()),
  );
  if (header < 0) return null;
  const ndiff = lines[header]?.includes("ndiff") === true;
  const body: string[] = [];
  for (const line of lines.slice(header + 1)) {
    if (!line.startsWith("    ")) break;
    body.push(line.slice(4));
  }
  const mark = (sign: string) => (ndiff ? `${sign} ` : sign);
  // A unified diff's `---` header is no removed line.
  const changed = body.filter((line) => !line.startsWith("---"));
  const pair = firstChangedPair(changed, mark("-"), mark("+"));
  return pair === null ? null : { expected: pair.removed, received: pair.added };
}

/**
 * The exception line that closes the traceback under a doctest's `UNEXPECTED EXCEPTION:
 * AttributeError("'Version' object has no attribute 'prelease'")`: `AttributeError: 'Version'
 * object has no attribute 'prelease'`, the words the tests that raise it directly print, so a
 * doctest that only wraps their cause reads as sharing it.
 */
function raisedLine(lines: readonly string[]): string | undefined {
  const trimmed = lines.map((line) => line.trim());
  const name = trimmed
    .map((line) => /^UNEXPECTED EXCEPTION: ([\w.]+)\(/.exec(line)?.[1])
    .find((found) => found !== undefined);
  if (name === undefined) return undefined;
  return trimmed.findLast((line) => line.startsWith(`${name}: `));
}

/** The first line of Python's own traceback (`--tb=native`), never the error. */
const NATIVE_HEADER = "Traceback (most recent call last):";

/**
 * `assert <received> == <expected>` from the message (or, under an `assert …, "message"`, from
 * the `assert` line below it), unittest's `<first> != <second>`; unless pytest shortened a side
 * (`{'a': {...s': ['x']}`): then the `Differing items:` or `At index 1 diff:` line below has
 * them whole, or the first pair of lines of its diff of two strings.
 */
function comparedValues(
  message: string,
  errorLines: readonly string[],
  rawErrorLines: readonly string[],
  call: string,
): { expected: string; received: string } | null {
  const assertion = errorLines.find((line) => line.startsWith("assert "));
  const values =
    valuesFromMessage(message) ??
    (assertion === undefined ? null : valuesFromMessage(assertion)) ??
    sidesAsCalled(unittestValues(message), call);
  const shortened = (value: string): boolean => value.includes("...");
  if (values !== null && !shortened(values.expected) && !shortened(values.received)) {
    return rightComputed(errorLines, values) ? swapped(values) : values;
  }
  const differing = errorLines.indexOf("Differing items:");
  // Two sequences: `At index 1 diff: OrderedDict([('key', 0)]) != OrderedDict([('key', None)])`;
  // of two byte strings it is one byte (`b'2' != b'1'`), less than their shortened sides say.
  const bytes = bytesCompared(values);
  const indexed = bytes
    ? undefined
    : errorLines.find((line) => AT_INDEX.test(line))?.replace(AT_INDEX, "");
  const pair = differing < 0 ? indexed : errorLines[differing + 1];
  const at = pair?.indexOf(" != ") ?? -1;
  if (pair === undefined || at < 0) return diffLines(rawErrorLines, bytes) ?? values;
  return { received: pair.slice(0, at), expected: pair.slice(at + 4) };
}

/** Whether both compared sides are Python byte strings (`b'14\r\naaaaa...'`). */
function bytesCompared(values: { expected: string; received: string } | null): boolean {
  return values !== null && /^b['"]/.test(values.expected) && /^b['"]/.test(values.received);
}

/** pytest's words before the first differing elements of two sequences it compared. */
const AT_INDEX = /^At index \d+ diff: /;

/**
 * Whether pytest says the right side of `assert 10 == 1` is what the test computed: its first
 * `+  where 1 = <Schema …>(12)` note explains the first side that came from a call, and here it
 * is the right one alone. `assert result == expected` is the convention the values follow
 * otherwise; a test written `assert 10 == s(12)` computes the right side.
 */
function rightComputed(
  errorLines: readonly string[],
  values: { expected: string; received: string },
): boolean {
  const assertion = errorLines.findIndex((line) => line.startsWith("assert "));
  const note = assertion < 0 ? undefined : errorLines[assertion + 1];
  const explained = note === undefined ? undefined : /^\+\s+where (.+?) = /.exec(note)?.[1];
  return explained === values.expected && explained !== values.received;
}

/** The two sides the other way round. */
function swapped(values: { expected: string; received: string }): {
  expected: string;
  received: string;
} {
  return { expected: values.received, received: values.expected };
}

/**
 * The first differing lines of pytest's diff of two strings, under the message and indented two
 * more than it: `- ` the expected line, `+ ` the received one (a `? ` line may mark between),
 * each quoted as Python prints a string and with its indentation, often what differs. Of two
 * byte strings the lines are their reprs already (`- b'\xc0'`), kept as printed.
 */
function diffLines(
  rawErrorLines: readonly string[],
  reprs: boolean,
): { expected: string; received: string } | null {
  const first = rawErrorLines.find((line) => line.trim() !== "");
  if (first === undefined) return null;
  const indent = " ".repeat(first.length - first.trimStart().length + 2);
  const body = rawErrorLines.flatMap((line) =>
    line.startsWith(indent) ? [line.slice(indent.length)] : [],
  );
  const pair = firstChangedPair(body, "- ", "+ ");
  if (pair === null || pair.gap > 2) return null;
  if (reprs) return { expected: pair.removed, received: pair.added };
  return { expected: pythonString(pair.removed), received: pythonString(pair.added) };
}

/**
 * The two sides of a bare `assert expected == result` that pytest did not rewrite (a helper
 * outside the test modules: only `E       AssertionError` shows), from the values its long
 * traceback prints for the frame's arguments (`expected = '|:-----|---------:|\\n| spam |'`,
 * one or more `name = value` to a line) above the function. A name saying which side it is
 * (`expected`, `want`) decides; else the left is the received side, as in `assert result == 3`.
 * Two strings of several lines give their first differing lines.
 */
function comparedArguments(
  lines: readonly string[],
): { expected: string; received: string } | null {
  const at = lines.findLastIndex((line) => /^>\s+assert \w+ == \w+\s*$/.test(line));
  const names = /assert (\w+) == (\w+)/.exec(lines[at] ?? "");
  if (names?.[1] === undefined || names[2] === undefined) return null;
  const [left, right] = [names[1], names[2]];
  const argumentValues = new Map<string, string>();
  for (const line of lines.slice(0, Math.max(at, 0))) {
    // A frame separator (`_ _ _`) starts the next frame's arguments.
    if (/^_(?: _)+$/.test(line.trim())) argumentValues.clear();
    // pytest prints the arguments unindented; the frame's source below is indented.
    if (line !== line.trimStart()) continue;
    for (const [, name, value] of line.matchAll(ARGUMENT)) {
      if (name !== undefined && value !== undefined) argumentValues.set(name, value);
    }
  }
  const leftValue = argumentValues.get(left);
  const rightValue = argumentValues.get(right);
  if (leftValue === undefined || rightValue === undefined) return null;
  const leftExpected = EXPECTED_NAME.test(left) && !EXPECTED_NAME.test(right);
  const pair = leftExpected
    ? { expected: leftValue, received: rightValue }
    : { expected: rightValue, received: leftValue };
  return differingLines(pair) ?? pair;
}

/** One argument in a long traceback's frame: `name = value`, several joined by `, `. */
const ARGUMENT =
  /(?:^|, )([a-z_]\w*) = ((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^'"])+?)(?=, [a-z_]\w* = |$)/g;

/** An argument's name that says it holds the expected side. */
const EXPECTED_NAME = /^(?:expected|expect|want|wanted|exp)(?:_\w+)?$/;

/**
 * Two Python strings of several lines (`'a\\nb'`) as their first lines that differ, without
 * the quotes: the one line to look at, where the whole strings would spend the room on what
 * they share.
 */
function differingLines(pair: { expected: string; received: string }): {
  expected: string;
  received: string;
} | null {
  const lineParts = (value: string): string[] | null =>
    /^'.*'$|^".*"$/.test(value) && value.includes("\\n") ? value.slice(1, -1).split("\\n") : null;
  const expected = lineParts(pair.expected);
  const received = lineParts(pair.received);
  if (expected === null || received === null) return null;
  const at = expected.findIndex((line, index) => line !== received[index]);
  const index = at < 0 ? Math.min(expected.length, received.length) : at;
  const [expectedLine, receivedLine] = [expected[index], received[index]];
  if (expectedLine === undefined || receivedLine === undefined) return null;
  return { expected: expectedLine, received: receivedLine };
}

/** `text` quoted as Python's `repr` quotes a string without escapes: single quotes unless it holds one. */
function pythonString(text: string): string {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text}'`;
}

/**
 * unittest's `AssertionError: <first> != <second>` (`assertEqual(result, expected)`, the
 * convention `assert result == expected` follows too), when the message is nothing else.
 */
function unittestValues(message: string): { expected: string; received: string } | null {
  const text = withoutSequenceLabel(message.replace(/^AssertionError: /, ""));
  const at = text.indexOf(" != ");
  if (at <= 0 || text.indexOf(" != ", at + 1) >= 0) return null;
  const received = text.slice(0, at).trim();
  const expected = text.slice(at + 4).trim();
  return received === "" || expected === "" ? null : { expected, received };
}

/** A short-summary line alone as a failure, placed by its `--tb=line` report when there is one. */
function summaryFailure(nodeId: string, message: string, report?: LineReport): Failure {
  const separator = nodeId.indexOf("::");
  const draft = newDraft("test", nodeId, separator < 0 ? nodeId : nodeId.slice(0, separator));
  if (report !== undefined && !isInternalPath(report.file)) {
    draft.file = report.file;
    draft.line = report.line;
  }
  // The report line is the error whole; the summary cuts it to the terminal's width.
  setMessage(draft, report?.message ?? message.trim());
  return finishDraft(draft);
}

/** A section title as a node id tail: `TestX.test_y[1.5]` → `TestX::test_y[1.5]`. */
function nodeTail(title: string): string {
  const bracket = title.indexOf("[");
  const head = bracket < 0 ? title : title.slice(0, bracket);
  return head.replaceAll(".", "::") + (bracket < 0 ? "" : title.slice(bracket));
}

/** `file::name` when the test's file is known, else the name alone. */
function qualified(file: string | null, name: string): string {
  return file === null ? name : `${file}::${name}`;
}
