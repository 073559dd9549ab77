import type { Failure, TestOutputParser } from "../feedback.js";
import {
  finishDraft,
  newDraft,
  setMessage,
  setValue,
  type FailureDraft,
} from "../extractor/failure-draft.js";
import { logLines } from "../clean/log-lines.js";
import { valuesFromMessage } from "../extractor/assertion-values.js";
import { indentOf } from "../extractor/line-blocks.js";
import { isInternalPath, parseLocation } from "../extractor/stack-frames.js";

/** `go test`'s own lines: test headers and results, package results, `-json` events. */
const GO_TEST_LINE =
  /^(?:=== RUN\s|--- (?:FAIL|PASS|SKIP): |(?:ok|FAIL)\s+\S+\s+(?:\d+(?:\.\d+)?s|\(cached\)|\[(?:build|setup) failed\])|\{"Time":"[^"]*","Action":")/;

/** A `t.Error`/`t.Log` line: `auth_test.go:15: got "123", want "0123"`. */
const LOG_LINE = /^(\S+\.go):(\d+): ?(.*)$/;

/** A compiler or vet error under a `# pkg` header: `./billing.go:5:19: cannot use 0 …`. */
const BUILD_ERROR = /^(\S+\.go:\d+(?::\d+)?): (.+)$/;

/** A goroutine trace's file line: `/src/auth/load_test.go:18 +0x3c`. */
const TRACE_FILE = /^(\S+\.go):(\d+)(?: \+0x[\da-f]+)?$/;

/**
 * Keys of a message's continuation lines: testify's `assert` block (`Error Trace:`, `Error:`,
 * `expected:`, `actual  :`, `Test:`, the test's own `Messages:`) and the `got:`/`want:` lines of
 * a multi-line `t.Errorf`.
 */
const TESTIFY_KEY = /^(Error Trace|Error|Test|Messages|expected|actual|got|want)\s*:(.*)$/;

/**
 * A value line of a multi-line `t.Errorf` in any case: `Expected: true`, `actual: 1.2.2`,
 * `have: "d = 17:45:00.000000\n"`, also as the log line's own text (`version_test.go:153:
 * expected: 1.2.3`).
 */
const VALUE_KEY = /^(expected|actual|got|have|want)\s*:(.*)$/i;

/** A labelled line of a check printed line by line: `Error:    <nil>`. */
const LABELLED = /^\w+\s*:\s/;

/** A message ending on a value's label, its value on the next line: `expected`, `, got:`. */
const VALUE_LABEL_END = /(?:^|[\s,;])(?:expected|got|want|actual)\s*:?$/i;

/**
 * `go test` output, plain (`-v` or not) or the `-json` event stream: one failure per `--- FAIL`
 * test with its full name (`TestLogin/user_id`), its first log line's place and words, values from
 * `got X, want Y` idioms or testify's `expected:`/`actual:` block; a panic's first user frame; a
 * timeout named by the test in the trace; a package that failed to build named by the package.
 */
export const goTestParser: TestOutputParser = {
  name: "go-test",
  detect: (output) => logLines(output).some((line) => GO_TEST_LINE.test(line.trim())),
  parse: (output) => new GoTestReading(logLines(plainText(output))).run(),
  reportedFailures: (output) => {
    // go prints no total: its own `--- FAIL` lines are the count, a parent of a failed subtest
    // aside, package by package (`./...` runs tests of one name in several packages).
    const packages: string[][] = [[]];
    for (const line of logLines(plainText(output))) {
      const result = /^--- FAIL: (\S+)/.exec(line.trim());
      if (result?.[1] !== undefined) packages.at(-1)?.push(result[1]);
      else if (/^(?:FAIL|ok)\s+\S/.test(line)) packages.push([]);
    }
    const count = packages.reduce((sum, failed) => {
      const unique = [...new Set(failed)];
      return (
        sum + unique.filter((name) => !unique.some((other) => other.startsWith(`${name}/`))).length
      );
    }, 0);
    return count === 0 ? null : count;
  },
};

/**
 * The text `go test` would have printed: `-json` events replaced by their `Output`, lines that
 * are not events (build errors go to stderr as text) kept as they are.
 */
function plainText(output: string): string {
  if (!output.includes('"Action":"')) return output;
  return logLines(output)
    .map((line) => (line.startsWith('{"') ? eventOutput(line) : `${line}\n`))
    .join("");
}

/** The `Output` of one `-json` event, or nothing for other events and lines cut mid-event. */
function eventOutput(line: string): string {
  try {
    const event: unknown = JSON.parse(line);
    if (typeof event !== "object" || event === null || !("Output" in event)) return "";
    return typeof event.Output === "string" ? event.Output : "";
  } catch {
    return "";
  }
}

/** One pass over the lines of a plain `go test` run. */
class GoTestReading {
  /** Each test's messages (`t.Error` lines) in order; a test that printed none has one empty draft. */
  private readonly tests = new Map<string, FailureDraft[]>();
  private readonly failed = new Set<string>();
  private readonly buildErrors: FailureDraft[] = [];
  /** The message a log line began whose plain continuation lines still extend it, else null. */
  private wording: FailureDraft | null = null;
  /**
   * A testify field the next plain lines carry on, and what joins the next one: an `Error:`
   * ending on a colon (`Received unexpected error:`, the error on the lines below) or `Messages:`;
   * an `Error:` with nothing after it is one paragraph (toml's `Error:`, the error, a blank line,
   * then `Input:` and the test case).
   */
  private field: { draft: FailureDraft; joint: string; paragraph: boolean } | null = null;
  /** The message a log line began and the source line of the last log line that went on with it. */
  private check: { draft: FailureDraft; line: number; continued: boolean } | null = null;
  /** A panic outside any test (a timeout): named once its trace shows the test. */
  private orphanPanic: FailureDraft | null = null;
  /** The test whose output the next lines are: the latest `=== RUN`/`--- FAIL` header. */
  private current: FailureDraft | null = null;
  /** The tests of the `--- FAIL`/`PASS`/`SKIP` headers now open, by their lines' indent. */
  private readonly headers = new Map<number, string>();
  /** The package of a `# pkg` build-output header, while its errors are being read. */
  private building: string | null = null;
  /** A failed example's printed output (`got:`) and the output its comment wants (`want:`). */
  private example: {
    draft: FailureDraft;
    side: "got" | "want";
    got: string[];
    want: string[];
  } | null = null;

  constructor(private readonly lines: readonly string[]) {}

  /** The failures, build errors first. */
  run(): Failure[] {
    for (let index = 0; index < this.lines.length; index += 1) {
      index = this.read(index);
    }
    const failed = [...this.failed];
    const tests = failed
      .flatMap((name) => this.tests.get(name) ?? [])
      // A parent fails because a subtest did; the subtest carries the facts.
      .filter(
        (draft) =>
          draft.message !== "" || !failed.some((name) => name.startsWith(`${draft.test ?? ""}/`)),
      );
    const orphan = this.orphanPanic === null ? [] : [this.orphanPanic];
    return [...this.buildErrors, ...tests, ...orphan].map(finishDraft);
  }

  /** Reads the line at `index` (and, for a panic, its trace); returns the last index read. */
  private read(index: number): number {
    const raw = this.lines[index] ?? "";
    const trimmed = raw.trim();
    const header = /^(?:=== (?:RUN|CONT|NAME)|--- (FAIL|PASS|SKIP):)\s+(\S+)/.exec(trimmed);
    if (header !== null || /^(?:ok|FAIL|PASS)\b/.test(raw)) this.endExample();
    if (header?.[2] !== undefined) {
      this.building = null;
      this.current = this.test(header[2]);
      if (header[1] === "FAIL") this.failed.add(header[2]);
      // Under `-v` a test's lines follow its `=== RUN` line, and its `--- FAIL` line comes last.
      if (header[1] === undefined) this.headers.clear();
      else this.nest(indentOf(raw), header[2]);
      return index;
    }
    const buildHeader = /^# (\S+)/.exec(raw);
    if (buildHeader?.[1] !== undefined) {
      this.building = buildHeader[1];
      this.current = null;
      return index;
    }
    if (/^(?:ok|FAIL|PASS)\b/.test(raw)) {
      this.building = null;
      this.current = null;
      return index;
    }
    if (this.building !== null) {
      this.readBuildError(trimmed);
      return index;
    }
    if (this.readExampleLine(raw)) return index;
    if (raw.startsWith("panic: ")) return this.readPanic(index);
    // What a test prints itself (`fmt.Println`) starts at the margin; go indents its log lines
    // and their continuations.
    if (this.current !== null && raw !== trimmed)
      this.readTestLine(this.ownerOf(raw) ?? this.current, trimmed);
    else if (trimmed !== "") this.endContinuation();
    else if (this.field?.paragraph === true) this.field = null;
    return index;
  }

  /**
   * A log line or a testify key inside the current test's output. Every `file.go:12:` line is a
   * message of its own (a test reports each failed check), the lines under it its continuation.
   */
  private readTestLine(current: FailureDraft, trimmed: string): void {
    const log = LOG_LINE.exec(trimmed);
    if (log?.[1] !== undefined) {
      const at = Number(log[2]);
      const said = (log[3] ?? "").trim();
      if (this.continuesCheck(current, log[1], at, said)) {
        this.continueCheck(current, at, said);
        return;
      }
      const draft = current.line === null ? current : this.nextMessage(current);
      draft.file = log[1];
      draft.line = at;
      this.check = { draft, line: at, continued: false };
      setMessage(draft, said);
      readValue(draft, said);
      readInequality(draft, said);
      readStatedValues(draft, said);
      this.wording = draft.message === "" || draft.expected !== null ? null : draft;
      return;
    }
    const draft = current;
    const testify = TESTIFY_KEY.exec(trimmed);
    if (testify?.[1] === undefined && VALUE_KEY.exec(trimmed) === null) {
      if (this.field?.draft === draft && trimmed === "" && this.field.paragraph) {
        this.field = null;
        return;
      }
      if (this.field?.draft === draft && trimmed !== "") {
        draft.message += `${this.field.joint}${trimmed}`;
        this.field.joint = " ";
        return;
      }
      // A multi-line `t.Errorf("Version: %s\nConstraint: %s\nExpected: %v")`: the lines before
      // its values say what was checked, as much as its first line does.
      // One that ends on a value's label (`t.Errorf("expected \n%#v, got: \n%#v")`) goes on
      // with that value: the line break only set a long dump apart.
      if (this.wording === draft && trimmed !== "") {
        draft.message += `${VALUE_LABEL_END.test(draft.message) ? " " : "; "}${trimmed}`;
      }
      return;
    }
    this.endContinuation();
    const text = (testify?.[2] ?? "").trim();
    if (testify?.[1] === "Error") {
      // `Not equal:` introduces the values below, `Received unexpected error:` the error's words.
      setMessage(draft, text.replace(/:$/, ""));
      // `Error:` alone: the error's words are the lines below it, up to a blank line.
      if (text === "") this.field = { draft, joint: "", paragraph: true };
      else if (text.endsWith(":")) this.field = { draft, joint: ": ", paragraph: false };
    } else if (testify?.[1] === "Messages") {
      draft.message = draft.message === "" ? text : `${draft.message}; ${text}`;
      this.field = { draft, joint: " ", paragraph: false };
    } else if (testify?.[1] !== "Test") readValue(draft, trimmed);
  }

  /**
   * Whether a log line at `file:at` goes on with the check `current` began: it is at the source
   * line after the check's last and gives a value, or, once one did, another labelled line. One
   * check is often printed with several calls (`t.Errorf("Unexpected result…")`, then
   * `t.Errorf("Got: %s")`, `t.Errorf("Expected: %s")`, `t.Errorf("Error: %v")`); a whole check on
   * the next line (`Expected '4 hours' but got …` of a helper called line after line) is not.
   */
  private continuesCheck(current: FailureDraft, file: string, at: number, text: string): boolean {
    const check = this.check;
    return (
      check?.draft === current &&
      current.file === file &&
      at === check.line + 1 &&
      (VALUE_KEY.test(text) || (check.continued && LABELLED.test(text)))
    );
  }

  /** A line that goes on with its check: a value goes to its side, other words join the message. */
  private continueCheck(draft: FailureDraft, at: number, text: string): void {
    if (this.check !== null) this.check = { ...this.check, line: at, continued: true };
    if (VALUE_KEY.test(text)) readValue(draft, text);
    else if (text !== "") draft.message = draft.message === "" ? text : `${draft.message}; ${text}`;
    this.endContinuation();
  }

  /** No plain line after this one goes on with a message or a testify field. */
  private endContinuation(): void {
    this.wording = null;
    this.field = null;
  }

  /** A compiler or vet error: a failure of the package, at the error's place. */
  private readBuildError(trimmed: string): void {
    const error = BUILD_ERROR.exec(trimmed);
    const location = error?.[1] === undefined ? null : parseLocation(error[1]);
    if (error?.[2] === undefined || location === null) return;
    const draft = newDraft("file", this.building, location.file);
    draft.line = location.line;
    setMessage(draft, error[2]);
    this.buildErrors.push(draft);
  }

  /**
   * `panic: message` and the goroutine trace below it, up to the package's `FAIL` line. The
   * first frame in user code says where; outside any test (a timeout), that frame's function
   * or Go 1.20's `running tests:` list names the test. Returns the last index read.
   */
  private readPanic(index: number): number {
    const current = this.current;
    const draft =
      current === null
        ? newDraft("test", null, null)
        : current.message === ""
          ? current
          : this.nextMessage(current);
    if (current === null) this.orphanPanic ??= draft;
    // A panic fails the running test even when no `--- FAIL` line follows (a timeout under -v).
    else if (draft.test !== null) this.failed.add(draft.test);
    if (draft !== current) this.putFirst(draft);
    // The testing package re-panics what it recovered: `[recovered]` says so, not what broke.
    setMessage(draft, (this.lines[index] ?? "").trim().replace(/ \[recovered\]$/, ""));
    let cursor = index + 1;
    let previous = "";
    for (; cursor < this.lines.length; cursor += 1) {
      const raw = this.lines[cursor] ?? "";
      if (/^(?:ok|FAIL|PASS|---|===)\b/.test(raw)) break;
      const trimmed = raw.trim();
      const running = /^(Test\S*) \(\S+\)$/.exec(trimmed);
      if (running?.[1] !== undefined) draft.test ??= running[1];
      // A deferred recover that panics again (`e.(string)` on a runtime error) is on the trace
      // above the first panic's frames: the frames after the last `panic(` are where it broke.
      if (trimmed.startsWith("panic(") && draft.line !== null) {
        draft.file = null;
        draft.line = null;
      }
      const frame = TRACE_FILE.exec(trimmed);
      if (frame?.[1] !== undefined && isUserCode(frame[1])) {
        if (draft.line === null) {
          draft.file = frame[1];
          draft.line = Number(frame[2]);
        }
        // A deadlock's first user frame is the code that waits; a later one is the test's own.
        draft.test ??= /\.(Test[^.(]*)\(/.exec(previous)?.[1] ?? null;
      }
      previous = trimmed;
    }
    return cursor - 1;
  }

  /**
   * A panic as its test's first failure: it ended the test, and the lines the test printed
   * before it read alike whether they were failed checks or `t.Log` (csscolorparser's thirteen
   * logged errors before an index out of range), so they come after it.
   */
  private putFirst(draft: FailureDraft): void {
    const drafts = draft.test === null ? undefined : this.tests.get(draft.test);
    if (drafts === undefined || !drafts.includes(draft)) return;
    this.tests.set(draft.test ?? "", [draft, ...drafts.filter((other) => other !== draft)]);
  }

  /** A `--- FAIL` header at `indent`: the deeper ones before it are no one's parents now. */
  private nest(indent: number, name: string): void {
    for (const deeper of [...this.headers.keys()])
      if (deeper >= indent) this.headers.delete(deeper);
    this.headers.set(indent, name);
  }

  /**
   * The test a log line (`file.go:12: …`) belongs to by its indent, four more than its test's
   * `--- FAIL` line: a parent's own lines come after its subtests' (toml's `TestToml` ends
   * with `toml_test.go:375:   valid: passed 217; failed 1` under `TestToml/encoder/…`'s).
   */
  private ownerOf(raw: string): FailureDraft | null {
    if (!LOG_LINE.test(raw.trim())) return null;
    const name = this.headers.get(indentOf(raw) - 4);
    return name === undefined ? null : this.test(name);
  }

  /** The latest message draft of a test, created on first mention. */
  private test(name: string): FailureDraft {
    const known = this.tests.get(name) ?? [newDraft("test", name, null)];
    this.tests.set(name, known);
    return known.at(-1) ?? newDraft("test", name, null);
  }

  /**
   * A line of a failed example's report: `got:` and `want:` at the margin, each over the whole
   * output, line by line. Whether the line was one.
   */
  private readExampleLine(raw: string): boolean {
    const current = this.current;
    if (current === null || !(current.test ?? "").startsWith("Example")) return false;
    if (raw === "got:") {
      this.example = { draft: current, side: "got", got: [], want: [] };
      return true;
    }
    const example = this.example;
    if (example?.draft !== current) return false;
    if (raw === "want:") example.side = "want";
    else example[example.side].push(raw);
    return true;
  }

  /**
   * An example's report read to its end: the first line its output and its `want:` differ in
   * is the pair (the outputs share the rest), and where it is, the message.
   */
  private endExample(): void {
    const example = this.example;
    this.example = null;
    if (example === null) return;
    const { draft, got, want } = example;
    const at = got.findIndex((line, index) => line !== want[index]);
    const differs = at < 0 ? (want.length > got.length ? got.length : -1) : at;
    if (differs < 0) return;
    setMessage(draft, `output differs from want: at line ${differs + 1}`);
    draft.expected = want[differs] ?? null;
    draft.received = got[differs] ?? null;
  }

  /** A new message of the test `after` belongs to, which the lines below now describe. */
  private nextMessage(after: FailureDraft): FailureDraft {
    const draft = newDraft("test", after.test, null);
    if (after.test !== null) this.tests.get(after.test)?.push(draft);
    this.current = draft;
    return draft;
  }
}

/**
 * Whether a trace's file is the user's: not in a Go installation's standard library
 * (`/usr/local/go/src/testing/…`, `/usr/lib/go-1.19/src/runtime/…`: a package path without a
 * domain), the module cache, or generated test main. A GOPATH's sources
 * (`~/go/src/github.com/…`) are the user's.
 */
function isUserCode(file: string): boolean {
  return (
    !/\/go[^/]*\/(?:libexec\/)?src\/[^/.]+\//.test(file) &&
    !file.includes("/pkg/mod/") &&
    !file.endsWith("_testmain.go") &&
    !isInternalPath(file)
  );
}

/**
 * `got != want` between two printed values, apart from the words around them: `("_a" != "a")`.
 * A value is one as Go's `%q` and `%v` print it: a quoted string (escapes kept), a rune, a
 * number, a constant.
 */
const INEQUALITY =
  /(?:^|[\s([:,])("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)+'|-?\d+(?:\.\d+)?|true|false|nil) != ("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)+'|-?\d+(?:\.\d+)?|true|false|nil)(?=$|[\s)\],;.])/;

/**
 * A message's one `X != Y` between two printed values as received and expected: Go writes a
 * failed check actual first (`if got != want`, and the message in that order), the convention
 * Go's code review guide sets. Values a line already gave stay.
 */
function readInequality(draft: FailureDraft, message: string): void {
  if (draft.expected !== null || draft.received !== null) return;
  if (message.indexOf(" != ") !== message.lastIndexOf(" != ")) return;
  const pair = INEQUALITY.exec(message);
  if (pair?.[1] === undefined || pair[2] === undefined) return;
  setValue(draft, "received", pair[1], message);
  setValue(draft, "expected", pair[2], message);
}

/**
 * The pair a log line states (`StringsSimilarity() = 1, want 0`), read from that line alone: the
 * lines a multi-line `t.Errorf` prints under it (`Rune string 1: [], len: 0`) are the check's
 * context, not part of its wanted value.
 */
function readStatedValues(draft: FailureDraft, said: string): void {
  if (draft.expected !== null || draft.received !== null) return;
  const stated = valuesFromMessage(said);
  if (stated === null) return;
  setValue(draft, "expected", stated.expected, said);
  setValue(draft, "received", stated.received, said);
}

/** A value line (`expected: 1.2.3`, `Got: -1`) as the draft's expected or received side. */
function readValue(draft: FailureDraft, trimmed: string): void {
  const key = VALUE_KEY.exec(trimmed);
  if (key?.[1] === undefined) return;
  const side = /^(?:expected|want)$/i.test(key[1]) ? "expected" : "received";
  setValue(draft, side, (key[2] ?? "").trim(), trimmed);
}
