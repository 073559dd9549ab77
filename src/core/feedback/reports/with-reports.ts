import type { Failure, TestOutputParser } from "../feedback.js";
import { GENERIC_RUNNER, readFailures, type ReadFailures } from "../read-failures.js";
import { isJunit } from "./junit.js";

/** How runners join a suite path; any reads as any other when a report and a log name a test. */
const NAME_SEPARATOR = / (?:[›>▶/]|::) |::|#/g;

/**
 * Failures read from the machine-readable reports a test step wrote (JUnit XML, Jest/Vitest/
 * Mocha JSON, `go test -json`, TAP, CTRF) first, the console output for what they lack: a
 * report's exact names and typed values win; a test both name gets the log's failing frame and
 * the facts the report left out (see `filledFrom`); failures the log places that are no test —
 * a file that did not compile or load — are added. When the reports name no failing test, the
 * console is read as without them (a compile error fails a run before any report is written). A
 * report in a format no parser reads (Playwright's JSON) is passed over: the general extractor
 * would take its keys for errors. The count is the reports' own where they give one.
 */
export function readWithReports(
  console: string,
  reports: readonly string[],
  parsers: readonly TestOutputParser[],
  testsFailed: boolean,
): ReadFailures {
  const read = reports.map((report) => ({
    read: readFailures(report, parsers, false),
    // JUnit XML keeps values as the console printed them; a JSON report keeps them typed.
    printed: isJunit(report),
  }));
  const known = read.filter((report) => report.read.runner !== GENERIC_RUNNER);
  const fromReports = known.map((report) => report.read);
  const printed = new Set(
    known.flatMap((report) => (report.printed && !report.read.passed ? report.read.failures : [])),
  );
  const failures = fromReports.flatMap((read) => (read.passed ? [] : read.failures));
  const [first] = fromReports.filter((read) => !read.passed && read.failures.length > 0);
  if (first === undefined) {
    const fromConsole = readFailures(console, parsers, testsFailed);
    const reportsPassed = fromReports.length > 0 && fromReports.every((read) => read.passed);
    return reportsPassed && !testsFailed && fromConsole.failures.length === 0
      ? { failures: [], runner: fromReports[0]?.runner ?? fromConsole.runner, passed: true }
      : fromConsole;
  }
  const fromConsole = readFailures(console, parsers, false);
  const logged = fromConsole.passed ? [] : fromConsole.failures;
  const matched = new Set<Failure>();
  const merged = failures.map((failure) => {
    const twins = logged.filter(
      (candidate) => !matched.has(candidate) && sameTest(failure, candidate),
    );
    for (const twin of twins) matched.add(twin);
    const [twin, ...more] = twins;
    if (twin === undefined) return { at: null, failures: [failure] };
    // A test that failed several checks (two snapshots, two `t.Errorf`) is one test case in a
    // report but one failure per check in the log: the later checks keep the log's facts.
    const checks = more.map((check) => ({ ...check, test: failure.test }));
    return {
      at: logged.indexOf(twin),
      failures: [filledFrom(failure, twin, printed.has(failure)), ...checks],
    };
  });
  // Added from the log: what is no test but has a place (a file that did not compile or load).
  // A line that only looks like an error (the summary's `Tests 1 failed`) says nothing the
  // reports did not.
  const notTests = logged.filter(
    (failure) =>
      !matched.has(failure) &&
      failure.file !== null &&
      (failure.test === null || failure.test === failure.file),
  );
  const counts = fromReports.map((read) => read.reported ?? null);
  const reported = counts.every((count) => count !== null)
    ? counts.reduce<number>((sum, count) => sum + (count ?? 0), 0) + notTests.length
    : undefined;
  return {
    failures: [...inLogOrder(merged).flat(), ...notTests],
    runner: first.runner,
    passed: false,
    ...(reported === undefined ? {} : { reported }),
  };
}

/**
 * The report's failures in the order the log printed them (a JUnit report lists suites by
 * file, the log as they ran, and the log's order is the one its reader saw): each goes where
 * its log twin is, one the log does not name stays right after the report's failure before it.
 */
function inLogOrder(
  merged: readonly { at: number | null; failures: readonly Failure[] }[],
): (readonly Failure[])[] {
  let last = -1;
  const keyed = merged.map((entry, index) => {
    last = entry.at ?? last;
    return { key: last, index, failures: entry.failures };
  });
  return keyed.sort((a, b) => a.key - b.key || a.index - b.index).map((entry) => entry.failures);
}

/** Whether a report's failure and a log's are the same test, whatever joins their suite paths. */
function sameTest(report: Failure, logged: Failure): boolean {
  if (report.test === null || logged.test === null) return false;
  if (report.file !== null && logged.file !== null && report.file !== logged.file) {
    // A log may locate a failure in the code under test; only a name then tells.
    if (plainName(report.test) !== plainName(logged.test)) return false;
  }
  const a = plainName(report.test);
  const b = plainName(logged.test);
  return a === b || a.endsWith(` ${b}`) || b.endsWith(` ${a}`);
}

/** A test name with every suite separator read as one space. */
function plainName(name: string): string {
  return name.replace(NAME_SEPARATOR, " ").trim();
}

/**
 * A report's failure completed by the log's account of the same test: the report's name, the
 * log's place when it has one (a report often gives only where the test is declared, a log the
 * frame that failed), the report's values when it kept both (typed), else the log's — also when
 * the report is JUnit XML, whose values are the printed text the log's parser reads better
 * (pytest's `Differing items` over its cut `{'a...': 1, ...}`) — and the
 * report's words unless it has none; the test's own frame (`testLocation`) only where it is not
 * that place.
 */
function filledFrom(report: Failure, logged: Failure, printed: boolean): Failure {
  const placed = logged.file !== null && logged.line !== null;
  const loggedBoth = logged.expected !== null && logged.received !== null;
  const valued = report.expected !== null && report.received !== null && !(printed && loggedBoth);
  const { testLocation, ...rest } = report;
  // The test's own frame is kept beside the log's place only when it says something more.
  const own = placed ? (logged.testLocation ?? testLocation) : testLocation;
  const more =
    own !== undefined && !(placed && own.file === logged.file && own.line === logged.line);
  return {
    ...rest,
    file: placed ? logged.file : report.file,
    line: placed ? logged.line : report.line,
    expected: valued ? report.expected : logged.expected,
    received: valued ? report.received : logged.received,
    message: report.message === "" ? logged.message : report.message,
    ...(more ? { testLocation: own } : {}),
  };
}
