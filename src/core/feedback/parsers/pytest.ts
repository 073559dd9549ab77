import { valuesFromMessage } from "../assertion-values.js";
import type { Failure, TestOutputParser } from "../feedback.js";
import { finishDraft, newDraft, setMessage } from "../failure-draft.js";
import { logLines } from "../log-lines.js";
import { isInternalPath } from "../stack-frames.js";
import { isJunit, junitFailures } from "./junit.js";
import { elementText, nextTag } from "./xml-scanner.js";

/** pytest's session banners: `=== test session starts ===`, `=== FAILURES ===`, `=== ERRORS ===`. */
const BANNER =
  /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info|warnings summary) =+$/;

/** The `-q` closing line: `2 failed, 1 passed in 0.09s`, `1 error in 0.68s`. */
const QUIET_TOTALS =
  /^=* ?\d+ (?:failed|passed|errors?|skipped)(?:, \d+ [a-z]+)* in \d+(?:\.\d+)?s(?: \(\S+\))? ?=*$/;

/** The short summary's `FAILED tests/a.py::Class::test - message` (or `ERROR tests/a.py`). */
const SUMMARY_LINE = /^(?:FAILED|ERROR) (\S+\.py(?:::\S+)?)(?: - (.*))?$/;

/** A traceback location: `tests/a.py:9: AssertionError`, `tests/a.py:8: `, `a.py:1: in <module>`. */
const LOCATION_LINE = /^(\S+\.py):(\d+):(?:\s|$)/;

/** A pytest failure section's report, from its `___ title ___` header to the next. */
interface Section {
  readonly title: string;
  readonly lines: string[];
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
    const { test, file } = failure;
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

/** Failures from the `FAILURES`/`ERRORS` sections, named and completed by the short summary. */
function parsePytest(lines: readonly string[]): Failure[] {
  const { sections, summary } = split(lines);
  const failures = sections.map((section) => sectionFailure(section, summary));
  const named = new Set(failures.map((failure) => failure.test));
  // `--tb=no` and `--tb=line` print no sections: the summary is all there is.
  for (const [nodeId, message] of summary) {
    if (!named.has(nodeId)) failures.push(summaryFailure(nodeId, message));
  }
  return failures;
}

/** The report sections and the short summary (node id → message) of the output. */
function split(lines: readonly string[]): { sections: Section[]; summary: Map<string, string> } {
  const sections: Section[] = [];
  const summary = new Map<string, string>();
  let current: Section | null = null;
  // Captured output (`--- Captured stdout call ---`) is the program talking, never a report.
  let muted = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith("___") && trimmed.endsWith("___")) {
      const title = trimmed.replace(/^_+ /, "").replace(/ _+$/, "");
      current = { title, lines: [] };
      sections.push(current);
      muted = false;
      continue;
    }
    if (/^=+ .* =+$/.test(trimmed)) {
      current = null;
      continue;
    }
    const summaryLine = SUMMARY_LINE.exec(trimmed);
    if (summaryLine?.[1] !== undefined && current === null) {
      summary.set(summaryLine[1], summaryLine[2] ?? "");
      continue;
    }
    if (/^-+ Captured \w+ \w+ -+$/.test(trimmed)) muted = true;
    else if (current !== null && !muted) current.lines.push(line);
  }
  return { sections, summary };
}

/** One section as a failure: the first `E` line is the message, the crash line says where. */
function sectionFailure(section: Section, summary: ReadonlyMap<string, string>): Failure {
  const collecting = /^ERROR collecting (\S+)$/.exec(section.title);
  const phase = /^ERROR at (?:setup|teardown) of (\S+)$/.exec(section.title);
  const name = collecting?.[1] ?? nodeTail(phase?.[1] ?? section.title);
  const draft = newDraft("test", name, null);
  const errorLines: string[] = [];
  let testFile: string | null = null;
  for (const line of section.lines) {
    if (/^E(?:\s|$)/.test(line)) {
      errorLines.push(line.slice(1).trim());
      continue;
    }
    const location = LOCATION_LINE.exec(line.trim());
    if (location?.[1] === undefined || isInternalPath(location[1])) continue;
    testFile ??= location[1];
    // The last user location is where it broke: pytest's own "reprcrash".
    draft.file = location[1];
    draft.line = Number(location[2]);
  }
  setMessage(draft, errorLines.find((line) => line !== "") ?? "");
  const summaryMessage = [...summary].find(([id]) => id === name || id.endsWith(`::${name}`));
  draft.test = collecting !== null ? name : (summaryMessage?.[0] ?? qualified(testFile, name));
  const values = comparedValues(draft.message, errorLines);
  if (values !== null) {
    draft.expected = values.expected;
    draft.received = values.received;
  }
  if (draft.message === "") setMessage(draft, summaryMessage?.[1] ?? "");
  return finishDraft(draft);
}

/**
 * `assert <received> == <expected>` from the message, unless pytest shortened a side
 * (`{'a': {...s': ['x']}`): then the `Differing items:` line below has them whole.
 */
function comparedValues(
  message: string,
  errorLines: readonly string[],
): { expected: string; received: string } | null {
  const values = valuesFromMessage(message);
  const shortened = (value: string): boolean => value.includes("...");
  if (values !== null && !shortened(values.expected) && !shortened(values.received)) return values;
  const differing = errorLines.indexOf("Differing items:");
  const pair = differing < 0 ? undefined : errorLines[differing + 1];
  const at = pair?.indexOf(" != ") ?? -1;
  if (pair === undefined || at < 0) return values;
  return { received: pair.slice(0, at), expected: pair.slice(at + 4) };
}

/** A short-summary line alone as a failure. */
function summaryFailure(nodeId: string, message: string): Failure {
  const separator = nodeId.indexOf("::");
  const draft = newDraft("test", nodeId, separator < 0 ? nodeId : nodeId.slice(0, separator));
  setMessage(draft, message.trim());
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
