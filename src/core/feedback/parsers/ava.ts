import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { truncateCodePoints } from "../clean/code-points.js";
import {
  frameLocation,
  isInternalPath,
  isTestPath,
  parseLocation,
} from "../extractor/stack-frames.js";
import type { SourceLocation } from "../extractor/stack-frames.js";
import { helperCaller, isNamedFrame, type UserFrame } from "../extractor/helper-frames.js";

/** Longest message kept, as for every other failure field. */
const MAX_MESSAGE_LENGTH = 1000;
/** A failed test in ava's list: `✘ [fail]: file › title` and, for some, the error's words after it. */
const FAILED = "✘ [fail]: ";
/** The same in ava 3's list: `✖ cart › sums prices` (a title, and for some the error's label after it). */
const FAILED_3 = "✖ ";
/** ava 3's list line, the rule before its detailed blocks and its closing count: together, not node:test's `✖`. */
const AVA_3 = [/^ {2}✖ /m, /^ {2}─$/m, /^ {2}\d+ tests? failed$/m];
/** A block that reports a whole file: `Uncaught exception in test/a.js`, `Unhandled rejection in …`. */
const FILE_BLOCK = /^(?:Uncaught exception|Unhandled rejection) in (\S+)$/;
/** ava's location line under a block's title: `test/cart.test.js:5`. */
const LOCATION_LINE = /^\S+\.\w+:\d+$/;
/** A line of the code frame under it: ` 5:   t.is(total(items), 4);`. */
const CODE_FRAME = /^\d+:(?: |$)/;
/** Labels ava puts above the error it caught rather than above a value. */
const ERROR_LABEL = /^(?:Error thrown in test|Rejected promise returned by test)\b/;
/** ava's diff header: `Difference (- actual, + expected):`, `Difference:` before ava 6. */
const DIFFERENCE = /^Difference(?: \(- actual, \+ expected\))?:$/;
/** An error's first line: `RangeError: empty id`, `Error: Promise returned by test never resolved`. */
const ERROR_LINE = /^[\w$.]*(?:Error|Exception)\b[^:]{0,200}: \S/;
/** ava's closing counts: `5 tests failed`, `1 uncaught exception`, `1 test remained pending after a timeout`. */
const COUNT =
  /^ {2}(\d+) (?:tests? failed|uncaught exceptions?|unhandled rejections?|tests? remained pending after a timeout)$/gm;

/**
 * ava 4–6's default reporter (and ava 3's, whose list reads `✖ cart › sums prices` and whose
 * location is the last `› file://test.js:11:4` frame): the list (`✘ [fail]: cart › sums prices`, `- [skip]`/`- [todo]`
 * never failures), then after a `─` rule one block per failure — its title, ava's location line
 * (`test/cart.test.js:5`), a code frame, the assertion's words (a custom message, `Value is not
 * \`true\`:`) and `Difference (- actual, + expected):` with `-` actual (received) and `+` expected
 * lines, or a thrown error with its stack. `Uncaught exception in file` blocks (a syntax error)
 * are failures named by the file; tests still pending when ava timed out (`◌ title` under
 * `N tests were pending in file`) fail with the timeout. Values keep ava's quoting (`'123'`).
 */
export const avaParser: TestOutputParser = {
  name: "ava",
  detect: (output) =>
    output.includes(FAILED) ||
    AVA_3.every((mark) => mark.test(output)) ||
    output.includes("✘ Timed out while running tests") ||
    /^ {2}Uncaught exception in \S/m.test(output),
  parse: (output): readonly Failure[] => failures(logLines(output)),
  reportedFailures: (output) => {
    const counts = [...output.matchAll(COUNT)].map((match) => Number(match[1]));
    return counts.length === 0 ? null : counts.reduce((sum, count) => sum + count, 0);
  },
};

/** What ava's list says of each failed test: its title and the words after it. */
interface Listed {
  readonly title: string;
  readonly rest: string;
}

/** Every failure: detailed blocks in order, then listed tests and timeouts no block spoke of. */
function failures(lines: readonly string[]): Failure[] {
  const listed = lines
    .map((line) => line.trim())
    .flatMap((line): Listed[] => {
      const marker = listMarker(line);
      return marker === undefined ? [] : [{ title: line.slice(marker.length), rest: "" }];
    });
  const blocks = detailBlocks(lines, listed);
  const found = blocks.map((block) => blockFailure(block.title, block.file, block.lines));
  const named = new Set(blocks.map((block) => block.title));
  const unreported = listed
    .filter((entry) => ![...named].some((title) => startsTitle(entry.title, title)))
    .map((entry) => bare(entry.title, null, entry.title));
  return [...found, ...unreported, ...timedOut(lines)];
}

/** A block's title (a test's, or a file's for an uncaught exception), its file, and its lines. */
interface Block {
  readonly title: string;
  readonly file: string | null;
  readonly lines: string[];
}

/**
 * The detailed blocks: each starts at a line that is a listed test's title (the list may add the
 * error's words after it) or an uncaught exception's header, and runs to the next or a `─` rule.
 */
function detailBlocks(lines: readonly string[], listed: readonly Listed[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  for (const raw of lines) {
    const trimmed = raw.trim();
    const file = FILE_BLOCK.exec(trimmed)?.[1];
    const title =
      file ?? (listed.some((entry) => startsTitle(entry.title, trimmed)) ? trimmed : undefined);
    if (title !== undefined && trimmed !== "" && !isListLine(trimmed)) {
      current = { title, file: file ?? null, lines: [] };
      blocks.push(current);
    } else if (trimmed === "─" || trimmed.startsWith("✘ ") || isListLine(trimmed)) {
      current = null;
    } else {
      current?.lines.push(trimmed);
    }
  }
  return blocks;
}

/** An error as ava 3 prints it, an inspected object: `TypeError {` over `message: 'x is not a function',`. */
const INSPECTED_ERROR = /^([\w$.]*(?:Error|Exception)) \{$/;
const INSPECTED_MESSAGE = /^message: (['"`])(.*)\1,?$/;

/**
 * `TypeError: x is not a function` from ava's `TypeError {` and its `message:` line, else "".
 * The message is a quoted JavaScript string there: its escaped quotes and backslashes are read
 * as the characters they stand for (`(reading \'bar\')` is `(reading 'bar')`).
 */
function inspectedError(line: string, next: string): string {
  const name = INSPECTED_ERROR.exec(line)?.[1];
  const message = INSPECTED_MESSAGE.exec(next)?.[2]?.replace(/\\(['"`\\])/g, "$1");
  return name === undefined || message === undefined ? "" : `${name}: ${message}`;
}

/** The marker a trimmed line of ava's list of failed tests starts with (ava 4–6 or ava 3), if any. */
function listMarker(trimmed: string): string | undefined {
  return [FAILED, FAILED_3].find((marker) => trimmed.startsWith(marker));
}

/** Whether a trimmed line is a failed test's line in ava's list. */
function isListLine(trimmed: string): boolean {
  return listMarker(trimmed) !== undefined;
}

/** Whether a listed line (`parses ids Error thrown in test`) starts with the block title `title`. */
function startsTitle(listed: string, title: string): boolean {
  return title !== "" && (listed === title || listed.startsWith(`${title} `));
}

/** One block read: where (location line, else the first user frame), the words, the values. */
function blockFailure(title: string, file: string | null, lines: readonly string[]): Failure {
  let location: SourceLocation | null = null;
  let outermost: SourceLocation | null = null;
  let frame: SourceLocation | null = null;
  const frames: UserFrame[] = [];
  let label = "";
  let error = "";
  let values: { expected: string; received: string } | null = null;
  let received: string | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line === "" || CODE_FRAME.test(line)) continue;
    if (location === null && (LOCATION_LINE.test(line) || isAbsoluteLocation(line))) {
      location = parseLocation(line);
      continue;
    }
    const stack = line.startsWith("› ")
      ? parseLocation(line.slice(2).replace(/^.*\(|\)$/g, ""))
      : frameLocation(line);
    if (stack !== null) {
      if (!isInternalPath(stack.file)) {
        frame ??= stack;
        outermost = stack;
        frames.push({ location: stack, named: isNamedFrame(line) });
      }
      continue;
    }
    if (DIFFERENCE.test(line)) {
      const diff = difference(lines, index + 1);
      values ??= diff.values;
      // A custom message (`Number(1400)`) is the test's own data; the header says the check.
      label = label === "" || label === line ? line : `${label.replace(/:$/, "")}: ${line}`;
      index = diff.end - 1;
      continue;
    }
    const inspected = error === "" ? inspectedError(line, lines[index + 1] ?? "") : "";
    if (inspected !== "") {
      error = inspected;
      index += 1;
    } else if (error === "" && ERROR_LINE.test(line)) {
      error = line;
    } else if (label === "" && !/^[{}\]]/.test(line) && !/^\w+ \{$/.test(line)) {
      label = line;
      // `Value is not \`true\`:` and its kind put the value the code produced below them.
      if (line.endsWith(":") && !ERROR_LABEL.test(line)) {
        const value = lines.slice(index + 1).find((next) => next !== "");
        if (value !== undefined && !DIFFERENCE.test(value)) received = value;
      }
    }
  }
  // An error thrown in the code under test is where it was thrown (`› normalizeDataURL
  // (file://index.js:29:9)`), the test's line beside it; a failed assertion made in a helper of
  // the test file (`› deserializeNonError (file://test.js:16:4)`) is the test's line that
  // called it. ava's location line above the block is the test's line or the helper's.
  const thrownElsewhere = error !== "" && frame !== null && !isTestPath(frame.file);
  const where = thrownElsewhere
    ? frame
    : ((error === "" ? helperCaller(frames) : null) ?? location ?? frame);
  const place =
    !thrownElsewhere && file !== null && where !== null && !where.file.endsWith(file)
      ? { file, line: null }
      : where;
  const message = error !== "" ? error : label.replace(/:$/, "");
  const testFrame =
    outermost !== null &&
    place?.file !== undefined &&
    outermost.file !== place.file &&
    isTestPath(outermost.file)
      ? { testLocation: outermost }
      : {};
  return {
    test: file ?? title,
    file: file ?? place?.file ?? null,
    line: place?.line ?? null,
    expected: values?.expected ?? null,
    received: values?.received ?? received,
    message: truncateCodePoints(message, MAX_MESSAGE_LENGTH),
    ...(error !== "" ? testFrame : {}),
  };
}

/**
 * The `-` (actual) and `+` (expected) lines of a diff starting at `start` (context lines
 * skipped), and the index of the blank line that ends it.
 */
function difference(
  lines: readonly string[],
  start: number,
): { values: { expected: string; received: string } | null; end: number } {
  const sides = { expected: [] as string[], received: [] as string[] };
  let index = start;
  for (; index < lines.length && index < start + 40; index += 1) {
    const line = lines[index] ?? "";
    if (line === "") {
      if (index > start) break;
      continue;
    }
    const side = line.startsWith("- ")
      ? sides.received
      : line.startsWith("+ ")
        ? sides.expected
        : null;
    side?.push(line.slice(2).trim());
  }
  const values =
    sides.expected.length === 0 && sides.received.length === 0
      ? null
      : { expected: sides.expected.join("\n"), received: sides.received.join("\n") };
  return { values, end: index };
}

/** An uncaught exception's location line, absolute: `/ci/app/test/cart.test.js:5`. */
function isAbsoluteLocation(line: string): boolean {
  return line.startsWith("/") && !line.includes(" ") && parseLocation(line) !== null;
}

/** A listed failure no block explained, or a test ava timed out waiting for. */
function bare(title: string, file: string | null, message: string): Failure {
  return { test: title, file, line: null, expected: null, received: null, message };
}

/**
 * Tests ava was still waiting for when it timed out: `◌ title` lines under `N tests were
 * pending in test/wait.test.js`, each failed by `Timed out while running tests`.
 */
function timedOut(lines: readonly string[]): Failure[] {
  const found: Failure[] = [];
  let file: string | null = null;
  let timeout = false;
  for (const raw of lines) {
    const trimmed = raw.trim();
    if (trimmed === "✘ Timed out while running tests") timeout = true;
    const pending = /^\d+ tests? (?:were|was) pending in (\S+)$/.exec(trimmed);
    if (pending?.[1] !== undefined) file = pending[1];
    else if (timeout && file !== null && trimmed.startsWith("◌ "))
      found.push(bare(trimmed.slice(2), file, "Timed out while running tests"));
    else if (trimmed === "─") file = null;
  }
  return found;
}
