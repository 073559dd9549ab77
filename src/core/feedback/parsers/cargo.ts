import type { Failure, TestOutputParser } from "../feedback.js";
import {
  finishDraft,
  newDraft,
  setMessage,
  type FailureDraft,
} from "../extractor/failure-draft.js";
import { logLines } from "../clean/log-lines.js";
import { parseLocation, type SourceLocation } from "../extractor/stack-frames.js";
import { failureOf } from "../failure-of.js";
import {
  readRustDiagnostic,
  reportedDiagnostics,
  type RustDiagnostic,
} from "./rust-diagnostics.js";

/** libtest's own lines: `running 3 tests`, `test a::b ... FAILED`, `---- a::b stdout ----`, `test result:`. */
const LIBTEST_LINE =
  /^(?:running \d+ tests?|test \S+ \.\.\. (?:ok|FAILED|ignored)|---- \S.* std(?:out|err) ----|test result: (?:ok|FAILED)\.)/;

/**
 * A test target that did not build: `` could not compile `billing` (lib test) ``, `` (test "api") ``,
 * `` (bin "cli" test) ``; `cargo build`'s own failures are rustc's.
 */
const TEST_BUILD_FAILED =
  /^error: could not compile `[^`]+` \((?:lib test|test "|bin "[^"]*" test|example "[^"]*" test)/;

/** A rustc error's first line: `error[E0308]: mismatched types`, `error: expected one of …`. */
const DIAGNOSTIC = /^error(?:\[E\d+\])?: /;

/**
 * `cargo test` output (libtest's report plus cargo's build output): one failure per failing
 * test, named as libtest names it (`tests::user_id`), located at its panic; `assert_eq!`'s
 * `left`/`right` read as received/expected. A crate that failed to compile is a failure named
 * by the crate for each rustc error, located at its `-->` line.
 */
export const cargoParser: TestOutputParser = {
  name: "cargo",
  detect: (output) => {
    const lines = logLines(output).map((line) => line.trim());
    // `cargo clippy --all-targets` and `cargo check` also build test targets, but only check them.
    const checked = lines.some((line) => /^Checking \S+ v\d/.test(line));
    return lines.some(
      (line) => LIBTEST_LINE.test(line) || (!checked && TEST_BUILD_FAILED.test(line)),
    );
  },
  parse: (output) => parseCargo(logLines(output)),
  reportedFailures: (output) => {
    const lines = logLines(output);
    let failed: number | null = null;
    for (const line of lines) {
      // One `test result:` per test binary (unit tests, each integration test, doc-tests).
      const result = /^test result: (?:ok|FAILED)\. \d+ passed; (\d+) failed;/.exec(line.trim());
      if (result !== null) failed = (failed ?? 0) + Number(result[1]);
    }
    return failed ?? reportedDiagnostics(lines)?.errors ?? null;
  },
};

/** One pass over cargo's output: test reports, panics and compiler diagnostics. */
function parseCargo(lines: readonly string[]): Failure[] {
  const drafts = new Map<string, FailureDraft>();
  let compileErrors: Failure[] = [];
  let current: FailureDraft | null = null;
  let crate: string | null = null;
  // Without capture (`--nocapture`) a test's output comes before its `... FAILED` line.
  let pendingError: string | null = null;
  const testDraft = (name: string): FailureDraft => {
    const known = drafts.get(name) ?? newDraft("test", name, null);
    drafts.set(name, known);
    return known;
  };
  for (let index = 0; index < lines.length; index += 1) {
    const trimmed = (lines[index] ?? "").trim();
    const compiling = /^Compiling (\S+) v\d/.exec(trimmed);
    if (compiling?.[1] !== undefined) crate = compiling[1];
    const notCompiled = /^error: could not compile `([^`]+)`/.exec(trimmed);
    if (notCompiled?.[1] !== undefined) {
      const name = notCompiled[1];
      compileErrors = compileErrors.map((error) => ({ ...error, test: error.test ?? name }));
      continue;
    }
    const result = testResult(trimmed);
    if (result !== null) {
      // A result line ends any report: what follows belongs to the next test.
      current = null;
      if (result.failed) setMessage(testDraft(result.name), pendingError ?? "");
      pendingError = null;
      continue;
    }
    if (/^(?:failures:|test result: |running \d+ tests?|Running |Doc-tests )/.test(trimmed)) {
      current = null;
      pendingError = null;
      continue;
    }
    const report = /^---- (\S.*) std(?:out|err) ----$/.exec(trimmed);
    if (report?.[1] !== undefined) {
      current = testDraft(report[1]);
      continue;
    }
    if (trimmed.startsWith("thread '") && trimmed.includes(" panicked at ")) {
      const name = trimmed.slice("thread '".length, trimmed.indexOf("' "));
      // Without capture no report header precedes the panic; an unnamed thread names no test.
      const draft = current ?? (name === "main" || name === "<unnamed>" ? null : testDraft(name));
      if (draft !== null) index = readPanic(lines, index, draft);
      continue;
    }
    const outcome = testOutcome(trimmed);
    if (outcome !== null) {
      if (current === null) pendingError ??= outcome.message;
      else recordOutcome(current, outcome);
      continue;
    }
    const diagnostic = DIAGNOSTIC.test(trimmed) ? readRustDiagnostic(lines, index) : null;
    if (diagnostic !== null) {
      compileErrors.push(compileError(diagnostic, crate));
      index = diagnostic.end;
      current = null;
    }
  }
  return [...compileErrors, ...[...drafts.values()].map(docTestPlace).map(finishDraft)];
}

/**
 * A result line: `test tests::adds ... FAILED`, `test tests::x - should panic ... ok`, and
 * doc-tests, whose names hold spaces: `test src/lib.rs - Version::cmp (line 433) ... FAILED`.
 */
function testResult(trimmed: string): { name: string; failed: boolean } | null {
  if (!trimmed.startsWith("test ")) return null;
  const at = trimmed.lastIndexOf(" ... ");
  const outcome = /^(FAILED|ok|ignored)\b/.exec(trimmed.slice(at + 5))?.[1];
  if (at < 0 || outcome === undefined) return null;
  const name = trimmed.slice("test ".length, at).replace(/ - should panic$/, "");
  return name === "" ? null : { name, failed: outcome === "FAILED" };
}

/**
 * A doc-test (`src/lib.rs - Version::cmp (line 433)`) sits at its example's line: a panic whose
 * place lies above it counts lines inside the example, not the file.
 */
function docTestPlace(draft: FailureDraft): FailureDraft {
  const doc = /^(\S+) - .*\(line (\d+)\)$/.exec(draft.test ?? "");
  if (doc?.[1] === undefined) return draft;
  const line = Number(doc[2]);
  if (draft.line !== null && draft.file === doc[1] && draft.line >= line) return draft;
  draft.file = doc[1];
  draft.line = line;
  return draft;
}

/**
 * A panic: `thread 'x' (12) panicked at src/lib.rs:3:5:` and the message below, or before
 * Rust 1.73 `thread 'x' panicked at 'message', src/lib.rs:3:5`; then `left:`/`right:` lines.
 * Returns the last line read.
 */
function readPanic(lines: readonly string[], index: number, draft: FailureDraft): number {
  const trimmed = (lines[index] ?? "").trim();
  const rest = trimmed.slice(trimmed.indexOf(" panicked at ") + " panicked at ".length);
  let cursor = index;
  // A test's first panic is the cause (a thread's, before the test's own `unwrap()` of it).
  if (draft.message !== "") return index;
  if (rest.endsWith(":")) {
    const location = parseLocation(rest.slice(0, -1));
    if (location !== null) ({ file: draft.file, line: draft.line } = location);
    cursor += 1;
    setMessage(draft, (lines[cursor] ?? "").trim());
  } else if (rest.startsWith("'")) {
    setMessage(draft, withoutQuotedLocation(rest.slice(1), draft));
  }
  for (const side of ["left", "right"] as const) {
    const next = (lines[cursor + 1] ?? "").trim();
    if (!next.startsWith(`${side}: `)) break;
    // Before Rust 1.73 values came in backticks with a trailing comma: `` left: `5`, ``.
    const value = withoutQuotedLocation(next.slice(side.length + 2), draft);
    draft[side] = value.replace(/^`(.*)`,?$/, "$1");
    cursor += 1;
  }
  if (draft.left === null) cursor = readLabelledValues(lines, cursor, draft);
  const own = testFrame(lines, cursor, draft);
  // A failed check in a helper (`tests::split_ok`) is the test's line that called it: which
  // check failed. A panic of the code under test stays where it happened, the test's line beside.
  const check =
    draft.left !== null || draft.expected !== null || /^assertion\b/.test(draft.message);
  if (own !== null && check) ({ file: draft.file, line: draft.line } = own);
  else draft.testFrame = own;
  return cursor;
}

/** A custom panic message's value lines: `expected: ["a", "b"]`, then `  actual: ["a"]`. */
const LABELLED_VALUE = /^(expected|actual|got|found|received):\s+(\S.*)$/i;

/**
 * The rest of a panic's own message, after its first line, up to a blank line or the
 * backtrace: a helper's `panic!("…\nexpected: {:?}\n  actual: {:?}")` prints its two sides on
 * labelled lines of their own, read as expected and received. Returns the last line read.
 */
function readLabelledValues(lines: readonly string[], index: number, draft: FailureDraft): number {
  let cursor = index;
  for (let next = lines[cursor + 1]?.trim(); next !== undefined && next !== "";) {
    // Without capture libtest's own lines and other threads' panics follow at once.
    if (next === "stack backtrace:" || /^(?:note: |thread ')/.test(next)) break;
    if (LIBTEST_LINE.test(next) || testResult(next) !== null) break;
    const labelled = LABELLED_VALUE.exec(next);
    const [, label = "", value = ""] = labelled ?? [];
    if (label.toLowerCase() === "expected") draft.expected ??= value;
    else if (labelled !== null) draft.received ??= value;
    cursor += 1;
    next = lines[cursor + 1]?.trim();
  }
  return cursor;
}

/**
 * The test function's own frame in the panic's `stack backtrace:` (`RUST_BACKTRACE=1`), the
 * frame named after the test (`3: shell_words::tests::split_comments`, then `at
 * ./src/lib.rs:467:9`), when the panic happened in a function it called: an earlier frame sits
 * at the panic's place (`2: shell_words::tests::split_ok` `at ./src/lib.rs:363:21`). A panic in
 * the test itself has no such frame, and its place is the better line: a backtrace puts a
 * macro's panic (`assert_delta!`) at the macro's own body, the panic's place at the call.
 */
function testFrame(
  lines: readonly string[],
  index: number,
  draft: FailureDraft,
): SourceLocation | null {
  const name = draft.test;
  let start = index + 1;
  while (lines[start]?.trim() === "") start += 1;
  if (name === null || lines[start]?.trim() !== "stack backtrace:") return null;
  let called = false;
  for (let at = start + 1; at < lines.length; at += 1) {
    const text = lines[at]?.trim() ?? "";
    const frame = /^\d+: (\S.*)$/.exec(text)?.[1];
    // Each frame is its function's line, then its `at` line: anything else ends the backtrace.
    if (frame === undefined) {
      if (/^at \S/.test(text)) continue;
      return null;
    }
    const place = /^at (?:\.\/)?(\S+)$/.exec(lines[at + 1]?.trim() ?? "")?.[1];
    const location = place === undefined ? null : parseLocation(place);
    if (frame === name || frame.endsWith(`::${name}`)) return called ? location : null;
    called ||= location?.file === draft.file && location.line === draft.line;
  }
  return null;
}

/** How a test failed without panicking: the `Err` it returned, or a `#[should_panic]` that did not. */
interface Outcome {
  readonly message: string;
  readonly location: SourceLocation | null;
}

/**
 * `Error: "bad size"` (a test returning `Err`) or `note: test did not panic as expected at
 * src/lib.rs:49:8` (the location only since Rust 1.80), else null.
 */
function testOutcome(trimmed: string): Outcome | null {
  if (trimmed.startsWith("Error: ")) return { message: trimmed, location: null };
  const note = /^note: (test did not panic as expected)(?: at (\S+))?$/.exec(trimmed);
  if (note?.[1] === undefined) return null;
  return { message: note[1], location: note[2] === undefined ? null : parseLocation(note[2]) };
}

/** An outcome as the facts of the test whose report it is in, unless a panic said more. */
function recordOutcome(draft: FailureDraft, outcome: Outcome): void {
  setMessage(draft, outcome.message);
  if (outcome.location !== null && draft.line === null) {
    ({ file: draft.file, line: draft.line } = outcome.location);
  }
}

/**
 * Before Rust 1.73 a panic's quoted message ended with its place: `` `4`', src/lib.rs:36:9 ``.
 * That place is recorded on the draft and the text returned without it.
 */
function withoutQuotedLocation(text: string, draft: FailureDraft): string {
  const quoteEnd = text.lastIndexOf("', ");
  const location = quoteEnd < 0 ? null : parseLocation(text.slice(quoteEnd + 3));
  if (location === null) return text;
  if (draft.line === null) ({ file: draft.file, line: draft.line } = location);
  return text.slice(0, quoteEnd);
}

/**
 * A rustc error that stopped the test build, named by the crate being compiled, at its
 * ` --> src/lib.rs:2:22` place with its code as the rule, `expected \`u32\`, found \`usize\``
 * as the values and a label naming code (`argument #3 of type \`u64\` is missing`) after the header.
 */
function compileError(diagnostic: RustDiagnostic, crate: string | null): Failure {
  return failureOf({
    test: crate,
    file: diagnostic.location?.file ?? null,
    line: diagnostic.location?.line ?? null,
    expected: diagnostic.expected,
    received: diagnostic.found,
    message:
      diagnostic.label === null ? diagnostic.header : `${diagnostic.header}: ${diagnostic.label}`,
    ...(diagnostic.column === null ? {} : { column: diagnostic.column }),
    ...(diagnostic.rule === null ? {} : { rule: diagnostic.rule }),
  });
}
