import { frameLocation, isInternalPath, parseLocation } from "./stack-frames.js";
import {
  finishDraft,
  hasDetails,
  newDraft,
  setLocation,
  setMessage,
  setValue,
  type DraftKind,
  type FailureDraft,
  type Side,
} from "./failure-draft.js";
import type { Failure } from "../feedback.js";
import { fallbackFailures } from "./fallback-lines.js";
import { isClosingLine, isConsoleHeader, isPassLine } from "./log-noise.js";
import { logLines } from "../clean/log-lines.js";
import { mergeFailures, type ExtractedFailure } from "./merge-failures.js";
import { withoutProjectSuffix } from "./project-suffix.js";

/** Most lines one multi-line value, diff or title is read from; the rest is not a gist. */
const MAX_VALUE_LINES = 30;

/** Which printed diff sign stands for which side (`- Expected` / `+ Received`, `+ actual - expected`). */
interface DiffSigns {
  readonly plus: Side;
  readonly minus: Side;
}

const JEST_SIGNS: DiffSigns = { plus: "received", minus: "expected" };
const MOCHA_SIGNS: DiffSigns = { plus: "expected", minus: "received" };

/** Diff headers of Jest/Vitest, Mocha, node:assert and node-tap, and what their signs mean. */
const DIFF_HEADERS: readonly { readonly pattern: RegExp; readonly signs: DiffSigns }[] = [
  { pattern: /^- (?:Expected|Snapshot)(?:\s+- \d+)?$/, signs: JEST_SIGNS },
  { pattern: /^\+ Received(?:\s+\+ \d+)?$/, signs: JEST_SIGNS },
  { pattern: /^\+ expected - actual$/, signs: MOCHA_SIGNS },
  { pattern: /^\+ actual - expected(?: \.\.\. Lines skipped)?$/, signs: JEST_SIGNS },
  { pattern: /^--- expected$/, signs: JEST_SIGNS },
  { pattern: /^\+\+\+ actual$/, signs: JEST_SIGNS },
];

/** Keys that print one side of a comparison: Jest/Vitest, node:assert, node-tap, testify, cargo, Go. */
const VALUE_KEY =
  /^(expected|received|actual|wanted|found|left|right|got|want)(?: [a-z]+){0,3}[ \t]*:(?:[ \t](.*))?$/i;

/** A line that starts a new report and so ends any value, diff or title being read. */
const REPORT_START = /^(?:FAIL\s|●\s|not ok\b|ok \d|--- (?:FAIL|PASS|SKIP):|---- |[×✓✔✕✖✗]\s|___)/;

/**
 * The failing tests in raw test-runner output, whatever the runner: Jest/Vitest, node:test
 * (spec and TAP), Mocha, pytest and unittest, `go test`, cargo, TAP producers. ANSI and control
 * sequences are stripped and every line is cut before any pattern runs, so huge or hostile logs
 * stay linear. Each failure keeps its full test name, the first user frame's file and line,
 * expected and received exactly as printed, and the error's first line. Passing tests,
 * timings, banners and runtime frames are dropped; repeated reports of one test are merged. When
 * nothing structured is found in non-empty output, the most informative lines stand in, so a
 * failing run never yields empty feedback.
 */
export function extractFailures(output: string): Failure[] {
  const lines = logLines(output);
  const failures = mergeFailures(new Extraction(lines).run());
  return failures.length > 0 ? failures : fallbackFailures(lines);
}

/**
 * The failures the output reports in any format the extractor reads, without the fallback
 * lines: per-runner parsers of text formats use it, so an all-passing run yields none.
 */
export function reportedFailures(output: string): Failure[] {
  return mergeFailures(new Extraction(logLines(output)).run());
}

/**
 * One failure read from an error report already known to belong to `test` (a JSON or XML
 * report's failure text): its first line, values, diff and first user frame.
 */
export function failureFromReport(test: string, file: string | null, report: string): Failure {
  const known = newDraft("test", test, file);
  const found = new Extraction(logLines(report), known).run();
  return found.find((entry) => entry.failure.test === test)?.failure ?? finishDraft(known);
}

/** A suite a test line is nested in, known by the column its header started at. */
interface Suite {
  readonly indent: number;
  readonly name: string;
}

/** One pass over the lines: a cursor, the failure being read, and the context around it. */
class Extraction {
  private readonly finished: ExtractedFailure[] = [];
  private current: FailureDraft | null = null;
  /** The file of the latest `FAIL file` header, the home of failures that name no test. */
  private fileContext: string | null = null;
  private suites: Suite[] = [];
  /** Go tests that started (`=== RUN`) and have not yet passed or failed. */
  private readonly goRuns = new Map<string, FailureDraft>();
  /** Inside a TAP diagnostic block (`---` … `...`). */
  private inYaml = false;
  /** Inside captured console output, which is never a runner's report. */
  private muted = false;

  /** `known` is the failure the lines are about, when the caller already knows which test. */
  constructor(
    private readonly lines: readonly string[],
    known: FailureDraft | null = null,
  ) {
    this.current = known;
  }

  /** Every failure report in the output, in order, before merging. */
  run(): ExtractedFailure[] {
    let index = 0;
    while (index < this.lines.length) index = this.read(index);
    this.close();
    return this.finished;
  }

  /** Reads the line at `index` and any lines it owns; returns the next unread index. */
  private read(index: number): number {
    const raw = this.lines[index] ?? "";
    const trimmed = raw.trim();
    if (trimmed === "") return index + 1;
    const indent = raw.length - raw.trimStart().length;
    const structural = this.readReport(index, trimmed, indent);
    if (structural !== null) return structural;
    if (this.muted) return index + 1;
    return this.readDetail(index, raw, trimmed, indent);
  }

  /**
   * Lines that start or end a report: test headers of every runner, pass lines, summaries,
   * console captures. Returns the next index, or null when the line is a detail.
   */
  private readReport(index: number, trimmed: string, indent: number): number | null {
    const next = index + 1;
    const goEvent = /^=== (RUN|CONT|NAME|PAUSE)\s+(\S+)$/.exec(trimmed);
    if (goEvent?.[2] !== undefined) {
      this.close();
      if (goEvent[1] !== "PAUSE") this.resumeGoRun(goEvent[2]);
      return next;
    }
    const goResult = /^--- (FAIL|PASS|SKIP): (\S+)/.exec(trimmed);
    if (goResult?.[2] !== undefined) {
      this.close();
      const draft = this.goRuns.get(goResult[2]) ?? newDraft("test", goResult[2], null);
      this.goRuns.delete(goResult[2]);
      draft.provisional = false;
      if (goResult[1] === "FAIL") this.open(draft);
      return next;
    }
    if (trimmed.startsWith("---- ") && trimmed.endsWith(" ----")) {
      const name = trimmed.slice(5, -5).replace(/ (?:stdout|stderr)$/, "");
      this.open(newDraft("test", name, null));
      return next;
    }
    const cargoFailed =
      /^test (\S+) \.\.\. FAILED$/.exec(trimmed) ?? /^(\S+) --- FAILED$/.exec(trimmed);
    if (cargoFailed?.[1] !== undefined)
      return this.oneLine(newDraft("test", cargoFailed[1], null), next);
    if (trimmed.startsWith("___") && trimmed.endsWith("___")) {
      const title = trimChars(trimmed, "_").trim();
      if (title !== "") return this.openPytestSection(title, next);
    }
    const pytestSummary = /^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/.exec(trimmed);
    if (pytestSummary?.[1] !== undefined && !isClosingLine(trimmed)) {
      return this.oneLine(pytestNodeDraft(pytestSummary[1], pytestSummary[2] ?? ""), next);
    }
    const unittest = /^(?:FAIL|ERROR): (\S.*)$/.exec(trimmed);
    if (unittest?.[1] !== undefined) {
      this.open(newDraft("test", unittestName(unittest[1]), null));
      return next;
    }
    const tap = this.readTap(trimmed, indent);
    if (tap) return next;
    if (diffSigns(trimmed) !== null) return null;
    if (isClosingLine(trimmed)) {
      this.close();
      return next;
    }
    if (isPassLine(trimmed)) {
      this.close();
      this.popSuites(indent);
      if (trimmed.startsWith("PASS")) this.fileContext = null;
      return next;
    }
    if (isConsoleHeader(trimmed)) {
      this.close();
      this.muted = true;
      return next;
    }
    const header = /^FAIL\s+(\S.*)$/.exec(trimmed);
    if (header?.[1] !== undefined) {
      this.openFileHeader(header[1]);
      return next;
    }
    if (trimmed.startsWith("● ")) {
      const name = trimmed.slice(2).trim();
      const suiteFailed = name === "Test suite failed to run";
      const kind: DraftKind = suiteFailed ? "file" : "test";
      const draft = this.open(newDraft(kind, suiteFailed ? null : name, this.fileContext));
      // Jest prints the error's own first line right under the header.
      const first = this.firstLineBelow(index, -1);
      if (isJestMessage(first)) setMessage(draft, first);
      return next;
    }
    if (/^[×✕✖✗] /.test(trimmed)) {
      this.popSuites(indent);
      const name = this.suitePath(withoutDuration(trimmed.slice(2).trim()));
      this.open(newDraft("test", name, this.fileContext));
      return next;
    }
    if (trimmed.startsWith("▶ ")) {
      this.close();
      this.pushSuite(indent, withoutDuration(trimmed.slice(2).trim()));
      return next;
    }
    const mocha = /^\d+\) (\S.*)$/.exec(trimmed);
    if (mocha?.[1] !== undefined) return this.openMochaTitle(index, indent, mocha[1]);
    return null;
  }

  /** TAP lines: `# Subtest:` nesting, `not ok` failures, the `---`/`...` diagnostic block. */
  private readTap(trimmed: string, indent: number): boolean {
    if (trimmed.startsWith("# Subtest: ")) {
      this.close();
      this.pushSuite(indent, trimmed.slice("# Subtest: ".length).trim());
      return true;
    }
    if (/^not ok\b/.test(trimmed)) {
      this.close();
      this.popSuites(indent);
      const numbered = trimmed.slice("not ok".length).replace(/^ \d+/, "");
      const rest = numbered.startsWith(" - ") ? numbered.slice(3) : numbered;
      const [title = "", directive = ""] = rest.split(" # ");
      // `# TODO` failures are expected to fail; `# SKIP` did not run.
      if (/^(?:todo|skip)\b/i.test(directive.trim())) return true;
      const name = title.trim();
      this.open(
        newDraft(name === "" ? "orphan" : "test", name === "" ? null : this.suitePath(name), null),
      );
      return true;
    }
    if (trimmed === "---" && this.current !== null) {
      this.inYaml = true;
      return true;
    }
    if (trimmed === "..." && this.inYaml) {
      this.inYaml = false;
      return true;
    }
    return false;
  }

  /** Facts inside a report (or, outside any, the start of an orphan): values, diffs, errors, frames. */
  private readDetail(index: number, raw: string, trimmed: string, indent: number): number {
    const next = index + 1;
    if (this.inYaml) {
      const handled = this.readYamlKey(index, trimmed, indent);
      if (handled !== null) return handled;
    }
    const signs = diffSigns(trimmed);
    if (signs !== null) return this.readDiff(index, indent, signs, trimmed);
    const awaited = /^([+-]) (Expected|Received):$/.exec(trimmed);
    if (awaited !== null)
      return this.readValueBelow(
        index,
        awaited[2] === "Expected" ? "expected" : "received",
        trimmed,
      );
    const value = VALUE_KEY.exec(trimmed);
    if (value?.[1] !== undefined)
      return this.readKeyValue(index, indent, value[1].toLowerCase(), value[2] ?? "", trimmed);
    if (trimmed.startsWith("thread '") && trimmed.includes(" panicked at "))
      return this.readPanic(index, trimmed);
    if (/^E\s/.test(raw)) {
      setMessage(this.draft(), raw.slice(1).trim());
      return next;
    }
    const error = errorLine(trimmed);
    if (error !== null) {
      setMessage(this.draft(), error);
      return next;
    }
    const strict = this.current === null ? null : strictInequality(trimmed);
    if (this.current !== null && strict !== null) {
      setValue(this.current, "received", strict.received, trimmed);
      setValue(this.current, "expected", strict.expected, trimmed);
      return next;
    }
    const frame = frameLocation(trimmed);
    if (frame !== null) {
      if (this.current !== null && !isInternalPath(frame.file)) setLocation(this.current, frame);
      return next;
    }
    if (trimmed.startsWith("expect(") && this.current !== null) {
      setMessage(this.current, trimmed);
      return next;
    }
    const located = /^([^\s:]+):(\d+):(?:\d+:)?(?:\s+(\S.*))?$/.exec(trimmed);
    if (located?.[1] !== undefined && located[1].includes(".") && !isInternalPath(located[1])) {
      // pytest's short traceback names the function (`path:13: in test_x`), not the error.
      const rest = (located[3] ?? "").startsWith("in ") ? "" : (located[3] ?? "");
      if (rest === "" && this.current === null) return next;
      const draft = this.draft();
      setLocation(draft, { file: located[1], line: Number(located[2]) });
      setMessage(draft, rest);
    }
    return next;
  }

  /** TAP YAML keys that carry the error (`error:`, `name:`) or the test's place (`location:`, `at:`). */
  private readYamlKey(index: number, trimmed: string, indent: number): number | null {
    const key =
      /^(error|message|name|location|at|stack|source|duration_ms|failureType|code|operator|type):(?:\s(.*))?$/.exec(
        trimmed,
      );
    if (key?.[1] === undefined) return null;
    const draft = this.draft();
    const value = (key[2] ?? "").trim();
    const next = index + 1;
    switch (key[1]) {
      case "error":
      case "message":
        setMessage(
          draft,
          isBlockIndicator(value) ? this.firstLineBelow(index, indent) : unquote(value),
        );
        return next;
      case "name":
        if (/^['"]?[\w$.]+['"]?$/.test(value)) draft.errorName ??= unquote(value);
        return next;
      case "location":
        draft.declared ??= parseLocation(unquote(value));
        return next;
      case "at":
        return this.readYamlAt(index, indent, value, draft);
      case "source":
        return this.skipBlock(index, indent);
      default:
        // `stack:` lines are frames and read as such; the rest is bookkeeping.
        return next;
    }
  }

  /**
   * Where a TAP producer says the assertion is: inline (`at: test/x.js:12:3`) or node-tap's
   * mapping on the lines below (`file:`/`line:`, or `fileName:`/`lineNumber:` since tap 16).
   */
  private readYamlAt(index: number, indent: number, value: string, draft: FailureDraft): number {
    if (value !== "") {
      // tape writes a frame (`Test.<anonymous> (file:///a.js:5:5)`), others a bare location.
      draft.declared ??= parseLocation(unquote(value)) ?? frameLocation(unquote(value));
      return index + 1;
    }
    const below = this.indentedBelow(index, indent);
    const field = (...names: string[]): string | undefined => {
      const line = below.lines.find((candidate) =>
        names.some((name) => candidate.startsWith(`${name}: `)),
      );
      return line?.slice(line.indexOf(": ") + 2).trim();
    };
    const file = field("file", "fileName");
    const line = Number(field("line", "lineNumber"));
    if (file !== undefined && Number.isSafeInteger(line)) {
      draft.declared ??= { file: unquote(file), line };
    }
    return below.next;
  }

  /**
   * A diff after its header: `-` and `+` lines assigned to sides as the header says. It ends at
   * a blank line, a frame, a new report, or a line left of the header (the next TAP key).
   */
  private readDiff(index: number, indent: number, signs: DiffSigns, printed: string): number {
    const draft = this.draft();
    const sides: Record<Side, string[]> = { expected: [], received: [] };
    let cursor = index + 1;
    let collected = 0;
    while (cursor < this.lines.length && cursor <= index + MAX_VALUE_LINES) {
      const raw = this.lines[cursor] ?? "";
      const trimmed = raw.trim();
      if (trimmed === "") {
        if (collected > 0) break;
      } else if (raw.length - raw.trimStart().length < indent) {
        break;
      } else if (diffSigns(trimmed) === null) {
        if (
          frameLocation(trimmed) !== null ||
          REPORT_START.test(trimmed) ||
          errorLine(trimmed) !== null
        )
          break;
        const sign = trimmed.charAt(0);
        if (sign === "+" || sign === "-") {
          sides[sign === "+" ? signs.plus : signs.minus].push(
            withoutTrailingComma(trimmed.slice(1).trim()),
          );
          collected += 1;
        }
      }
      cursor += 1;
    }
    setValue(draft, "expected", sides.expected.join("\n"), printed);
    setValue(draft, "received", sides.received.join("\n"), printed);
    return cursor;
  }

  /** Vitest's `- Expected:` / `+ Received:` with the value on the lines below, up to a blank line. */
  private readValueBelow(index: number, side: Side, printed: string): number {
    let cursor = index + 1;
    while ((this.lines[cursor] ?? "x").trim() === "" && cursor < this.lines.length) cursor += 1;
    const value: string[] = [];
    while (cursor < this.lines.length && value.length < MAX_VALUE_LINES) {
      const trimmed = (this.lines[cursor] ?? "").trim();
      if (trimmed === "" || /^[+-] (?:Expected|Received):$/.test(trimmed)) break;
      value.push(trimmed);
      cursor += 1;
    }
    setValue(this.draft(), side, value.join("\n"), printed);
    return cursor;
  }

  /** `expected: value`, with a YAML block or an open bracket continuing on the lines below. */
  private readKeyValue(
    index: number,
    indent: number,
    key: string,
    inline: string,
    printed: string,
  ): number {
    let value = withoutTrailingComma(inline.trim());
    let next = index + 1;
    const opensBracket = value.endsWith("{") || value.endsWith("[");
    if (value === "" || isBlockIndicator(value) || opensBracket) {
      const below = this.indentedBelow(index, indent, opensBracket);
      value = withoutTrailingComma([...(opensBracket ? [value] : []), ...below.lines].join("\n"));
      next = below.next;
    }
    const draft = this.draft();
    if (key === "left" || key === "right") {
      // Before Rust 1.73 the panic message, quoted, ends on the `right:` line with the location.
      const quoteEnd = value.lastIndexOf("', ");
      const location = quoteEnd < 0 ? null : parseLocation(value.slice(quoteEnd + 3));
      if (location !== null) {
        setLocation(draft, location);
        value = value.slice(0, quoteEnd);
      }
      if (value !== "") draft[key] ??= value;
      if (draft.firstDetail === "") draft.firstDetail = printed;
    } else {
      const side: Side = ["expected", "wanted", "want"].includes(key) ? "expected" : "received";
      setValue(draft, side, value, printed);
    }
    return next;
  }

  /** cargo's `thread 'name' panicked at src/lib.rs:10:5:` with the message on the next line (or inline, before Rust 1.73). */
  private readPanic(index: number, trimmed: string): number {
    const nameEnd = trimmed.indexOf("'", "thread '".length);
    const thread = nameEnd < 0 ? "" : trimmed.slice("thread '".length, nameEnd);
    const rest = trimmed.slice(trimmed.indexOf(" panicked at ") + " panicked at ".length);
    const draft =
      this.current ??
      this.open(
        thread === "" || thread === "main"
          ? newDraft("orphan", null, null)
          : newDraft("test", thread, null),
      );
    if (rest.endsWith(":")) {
      const location = parseLocation(rest.slice(0, -1));
      if (location !== null) setLocation(draft, location);
      let cursor = index + 1;
      while ((this.lines[cursor] ?? "x").trim() === "" && cursor < this.lines.length) cursor += 1;
      setMessage(draft, (this.lines[cursor] ?? "").trim());
      return cursor + 1;
    }
    const quoteEnd = rest.lastIndexOf("', ");
    if (rest.startsWith("'") && quoteEnd > 0) {
      setMessage(draft, rest.slice(1, quoteEnd));
      const location = parseLocation(rest.slice(quoteEnd + 3));
      if (location !== null) setLocation(draft, location);
    } else if (rest.startsWith("'")) {
      // A multi-line message: its first line is here, the location comes with its last.
      setMessage(draft, rest.slice(1));
    }
    return index + 1;
  }

  /** A pytest section header: `___ test_x ___`, `___ ERROR collecting tests/x.py ___`. */
  private openPytestSection(title: string, next: number): number {
    const collecting = /^ERROR collecting (\S+)$/.exec(title);
    if (collecting?.[1] !== undefined) {
      this.open(newDraft("file", null, collecting[1]));
      return next;
    }
    const phase = /^ERROR at (?:setup|teardown) of (\S+)$/.exec(title);
    this.open(newDraft("test", pytestName(phase?.[1] ?? title), null));
    return next;
  }

  /** A `FAIL file` or Vitest `FAIL file > suite > test` header. */
  private openFileHeader(rest: string): void {
    const [file = "", ...names] = withoutDuration(withoutProjectSuffix(rest)).split(" > ");
    if (names.length > 0) {
      this.open(newDraft("test", names.join(" > "), file));
      return;
    }
    this.fileContext = file;
    this.open(newDraft("file", null, file));
  }

  /**
   * Mocha's `1) suite` whose detailed form continues on deeper lines until one ends with `:`
   * (`1) login` / `returns token:`); without that it is the progress tree's line.
   */
  private openMochaTitle(index: number, indent: number, first: string): number {
    const parts = [first];
    for (
      let cursor = index + 1;
      cursor < this.lines.length && cursor <= index + MAX_VALUE_LINES;
      cursor += 1
    ) {
      const raw = this.lines[cursor] ?? "";
      const trimmed = raw.trim();
      if (
        trimmed === "" ||
        raw.length - raw.trimStart().length <= indent ||
        errorLine(trimmed) !== null
      )
        break;
      if (trimmed.endsWith(":")) {
        parts.push(trimmed.slice(0, -1));
        this.open(newDraft("test", parts.join(" > "), this.fileContext));
        return cursor + 1;
      }
      parts.push(trimmed);
    }
    this.open(newDraft("test", first, this.fileContext));
    return index + 1;
  }

  /** Lines below `index` indented deeper than `indent` (plus a closing bracket at `indent`). */
  private indentedBelow(
    index: number,
    indent: number,
    closingBracket = false,
  ): { lines: string[]; next: number } {
    const lines: string[] = [];
    let cursor = index + 1;
    while (cursor < this.lines.length && lines.length < MAX_VALUE_LINES) {
      const raw = this.lines[cursor] ?? "";
      const trimmed = raw.trim();
      const depth = raw.length - raw.trimStart().length;
      if (trimmed !== "" && depth > indent) {
        lines.push(trimmed);
      } else {
        if (closingBracket && trimmed !== "" && depth === indent && /^[\]}]/.test(trimmed)) {
          lines.push(trimmed);
          cursor += 1;
        }
        break;
      }
      cursor += 1;
    }
    return { lines, next: cursor };
  }

  /**
   * The index past a YAML block scalar that starts below `index` (blank lines included):
   * node-tap's `source:` quotes the test's code around the failing line, never a fact.
   */
  private skipBlock(index: number, indent: number): number {
    let cursor = index + 1;
    while (cursor < this.lines.length) {
      const raw = this.lines[cursor] ?? "";
      if (raw.trim() !== "" && raw.length - raw.trimStart().length <= indent) break;
      cursor += 1;
    }
    return cursor;
  }

  /** The first non-blank line indented deeper than `indent` below `index` (a YAML block scalar's first line). */
  private firstLineBelow(index: number, indent: number): string {
    for (
      let cursor = index + 1;
      cursor < this.lines.length && cursor <= index + MAX_VALUE_LINES;
      cursor += 1
    ) {
      const raw = this.lines[cursor] ?? "";
      if (raw.trim() === "") continue;
      return raw.length - raw.trimStart().length > indent ? raw.trim() : "";
    }
    return "";
  }

  /** Go's `=== RUN`/`=== CONT`: output lines from here on belong to that test until it reports. */
  private resumeGoRun(name: string): void {
    let draft = this.goRuns.get(name);
    if (draft === undefined) {
      draft = newDraft("test", name, null);
      draft.provisional = true;
      this.goRuns.set(name, draft);
    }
    this.open(draft);
  }

  /** The failure being read, or an orphan opened for details found outside any report. */
  private draft(): FailureDraft {
    return (
      this.current ??
      this.open(newDraft(this.fileContext === null ? "orphan" : "file", null, this.fileContext))
    );
  }

  /** Makes `draft` the failure being read, finishing the previous one. */
  private open(draft: FailureDraft): FailureDraft {
    if (this.current !== draft) this.close();
    this.current = draft;
    this.muted = false;
    this.inYaml = false;
    return draft;
  }

  /** A report that is a single line (`FAILED a.py::t - msg`, `test x ... FAILED`). */
  private oneLine(draft: FailureDraft, next: number): number {
    this.open(draft);
    this.close();
    return next;
  }

  /** Finishes the failure being read; Go runs that have not reported yet wait in `goRuns`. */
  private close(): void {
    const draft = this.current;
    this.current = null;
    this.inYaml = false;
    if (draft === null || draft.provisional) return;
    if (draft.kind === "orphan" && !hasDetails(draft)) return;
    this.finished.push({ failure: finishDraft(draft), kind: draft.kind });
  }

  /** Enters a suite header (`▶ name`, `# Subtest: name`) at `indent`. */
  private pushSuite(indent: number, name: string): void {
    this.popSuites(indent);
    this.suites.push({ indent, name });
  }

  /** Leaves every suite that started at or right of `indent`. */
  private popSuites(indent: number): void {
    while ((this.suites.at(-1)?.indent ?? -1) >= indent) this.suites.pop();
  }

  /** `name` under the suites it is nested in. */
  private suitePath(name: string): string {
    return [...this.suites.map((suite) => suite.name), name].join(" > ");
  }
}

/** Whether the line under a Jest `●` header is the error's own words rather than a value, diff or frame. */
function isJestMessage(line: string): boolean {
  return (
    line !== "" &&
    diffSigns(line) === null &&
    !VALUE_KEY.test(line) &&
    frameLocation(line) === null &&
    !REPORT_START.test(line)
  );
}

/** A printed primitive: a quoted string, a number, or a JavaScript constant. */
const PRIMITIVE = /^(?:'[^']*'|"[^"]*"|-?\d[\d.e+-]*|true|false|null|undefined|NaN|-?Infinity)$/;

/** node:assert's `actual !== expected` line (`'123' !== 123`), when both sides are primitives. */
function strictInequality(trimmed: string): { expected: string; received: string } | null {
  const at = trimmed.indexOf(" !== ");
  if (at <= 0) return null;
  const received = trimmed.slice(0, at);
  const expected = trimmed.slice(at + 5);
  return PRIMITIVE.test(received) && PRIMITIVE.test(expected) ? { expected, received } : null;
}

/** The signs of a diff header line, or null. */
function diffSigns(trimmed: string): DiffSigns | null {
  return DIFF_HEADERS.find((header) => header.pattern.test(trimmed))?.signs ?? null;
}

/**
 * The line itself when it is an error's first line (`TypeError: x`, `AssertionError
 * [ERR_ASSERTION]: x`, `java.lang.AssertionError: x`, Go's `panic: x`, Jest's `thrown: x`).
 */
function errorLine(trimmed: string): string | null {
  const colon = trimmed.indexOf(": ");
  if (colon <= 0) return null;
  const head = trimmed.slice(0, colon);
  const code = head.indexOf(" [");
  const name = code > 0 && head.endsWith("]") ? head.slice(0, code) : head;
  if (!/^[\w$.]+$/.test(name)) return null;
  return name === "panic" || name === "thrown" || /(?:Error|Exception|Failure)$/.test(name)
    ? trimmed
    : null;
}

/** A pytest section title as a node id tail: `TestX.test_y[1.5]` → `TestX::test_y[1.5]`. */
function pytestName(title: string): string {
  const bracket = title.indexOf("[");
  const head = bracket < 0 ? title : title.slice(0, bracket);
  return head.replaceAll(".", "::") + (bracket < 0 ? "" : title.slice(bracket));
}

/** pytest's `FAILED tests/a.py::Class::test - message` as a draft. */
function pytestNodeDraft(nodeId: string, message: string): FailureDraft {
  const separator = nodeId.indexOf("::");
  const draft =
    separator < 0
      ? newDraft("file", null, nodeId)
      : newDraft("test", nodeId.slice(separator + 2), nodeId.slice(0, separator));
  setMessage(draft, message.trim());
  return draft;
}

/** unittest's `test_x (module.Class.test_x)` (or the older `test_x (module.Class)`) as a dotted name. */
function unittestName(title: string): string {
  const match = /^(\S+) \(([\w.]+)\)/.exec(title);
  if (match?.[1] === undefined || match[2] === undefined) return title;
  return match[2].endsWith(`.${match[1]}`) ? match[2] : `${match[2]}.${match[1]}`;
}

/** A test title without the timing runners append: `works (5 ms)`, `works 12ms`, `works [1.2s]`. */
function withoutDuration(title: string): string {
  return title
    .replace(/ (?:\(\d+(?:\.\d+)? ?m?s\)|\[\d+(?:\.\d+)? ?m?s\]|\d+(?:\.\d+)? ?m?s)$/, "")
    .trim();
}

/** `text` without leading and trailing runs of `char`. */
function trimChars(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charAt(start) === char) start += 1;
  while (end > start && text.charAt(end - 1) === char) end -= 1;
  return text.slice(start, end);
}

/** A value without the comma that separated it from the next field of a printed object. */
function withoutTrailingComma(value: string): string {
  return value.endsWith(",") ? value.slice(0, -1).trimEnd() : value;
}

/** YAML block scalar indicators (`|`, `|-`, `>`, `>-`, `|+`). */
function isBlockIndicator(value: string): boolean {
  return /^[>|][+-]?$/.test(value);
}

/** A YAML scalar without its quotes. */
function unquote(value: string): string {
  const quote = value.charAt(0);
  if ((quote === "'" || quote === '"') && value.length >= 2 && value.endsWith(quote)) {
    const inner = value.slice(1, -1);
    return quote === "'" ? inner.replaceAll("''", "'") : inner;
  }
  return value;
}
