import type { Failure, TestOutputParser } from "../feedback.js";
import { reportedFailures } from "../extractor/general-extractor.js";
import { logLines } from "../clean/log-lines.js";
import { fileLoadFailure } from "./load-failure.js";
import { countsIn } from "./reported-count.js";

/**
 * A thrown error's first line, which in tape's output means the process died inside a test;
 * bracketed (`[TypeError: …]`) when Node printed an error without a stack.
 */
const THROWN = /^\[?[\w$.]*(?:Error|Exception)\b[^:]{0,200}: \S/;

/** Node's uncaught-error header above the source line and its caret: `/app/index.js:85`. */
const UNCAUGHT_AT = /^(\S+\.[cm]?[jt]sx?):(\d+)$/;

/** How far above an uncaught error Node prints its header: the source line, the caret, a blank. */
const UNCAUGHT_HEADER_LINES = 4;

/** YAML keys whose line the extractor falls back to as a message when no error was printed. */
const VALUE_LINE = /^(?:--- expected|(?:found|wanted|expected|actual):)/;

/**
 * Generic TAP 13/14 (tape, node-tap, any TAP producer): `not ok` lines, nested subtests
 * (indented `# Subtest:` blocks) and YAML diagnostics (`expected`/`actual`, node-tap's
 * `wanted`/`found` and `diff`, `at:` locations). Values keep the quoting the producer printed,
 * which in YAML is the type (`'123'` is a string, `123` a number). tape names a test with a
 * `# name` comment above its assertions, so an assertion's full name is `name > assertion`; an
 * error thrown inside a tape test (which ends the process) is that test's failure. A failure
 * with no error text (node-tap) takes its assertion's name (`should be equal`) as its message.
 */
export const tapParser: TestOutputParser = {
  name: "tap",
  detect: (output) => isTap(output),
  parse: (output): readonly Failure[] => {
    const lines = withoutBraces(logLines(output));
    const named = lines.some((line) => line.trimStart().startsWith("# Subtest: "))
      ? lines
      : withCommentNames(lines);
    const failures = reportedFailures(named.join("\n")).map(withMessage);
    return failures.map((failure) =>
      isFileFailure(failure) ? fileLoadFailure(failure, output) : failure,
    );
  },
  // tape's and TAP's `# fail 3`, node-tap's `# { total: 5, pass: 2, fail: 3 }`.
  reportedFailures: (output) =>
    countsIn(output, /^# fail +(\d+)$/gm) ??
    countsIn(output, /^# \{ total: \d+, pass: \d+, fail: (\d+)/gm),
};

/**
 * TAP 14's buffered subtests (`not ok 1 - cart # time=3ms {` … `}`, Vitest's `tap` reporter)
 * as the `# Subtest: cart` form, the test point moved after its subtests, as TAP 14 also
 * writes it: one nesting for the extractor to read.
 */
function withoutBraces(lines: readonly string[]): string[] {
  const rewritten: string[] = [];
  const open: string[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.endsWith(" {") && /^(?:not )?ok\b/.test(trimmed)) {
      const indent = line.slice(0, line.length - line.trimStart().length);
      const point = line.trimEnd().slice(0, -2);
      const title = trimmed.slice(0, -2).replace(/^(?:not )?ok(?: \d+)?(?: - )?/, "");
      rewritten.push(`${indent}# Subtest: ${title.split(" # ")[0] ?? ""}`);
      open.push(point);
    } else if (trimmed === "}" && open.length > 0) {
      rewritten.push(open.pop() ?? "");
    } else {
      rewritten.push(line);
    }
  }
  return rewritten;
}

/**
 * A test file that failed as a whole with nothing said about why in TAP (node-tap's
 * `not ok 1 - test/a.test.js` when the file does not load): its name is a path, it has no facts.
 */
function isFileFailure(failure: Failure): boolean {
  const name = failure.test ?? "";
  return (
    /\.[cm]?[jt]sx?$/.test(name) &&
    !name.includes(" > ") &&
    failure.line === null &&
    failure.expected === null &&
    failure.received === null &&
    (failure.message === "" || failure.message === name)
  );
}

/** A TAP version line, or a plan together with a test line. */
function isTap(output: string): boolean {
  if (/^[ \t]*TAP version 1[34]$/m.test(output)) return true;
  return /^[ \t]*1\.\.\d+$/m.test(output) && /^[ \t]*(?:not )?ok \d/m.test(output);
}

/**
 * tape's flat TAP with each `not ok` renamed `not ok N - <comment> > <assertion>`, and a
 * `not ok` inserted before an error thrown inside a test that had not failed yet.
 */
function withCommentNames(lines: readonly string[]): string[] {
  const renamed: string[] = [];
  let comment: string | null = null;
  let failed = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith("# ") && !/^# (?:tests|pass|fail|ok|skip|todo)\b/.test(trimmed)) {
      comment = trimmed.slice(2).trim();
      failed = false;
      renamed.push(line);
      continue;
    }
    const failure = /^not ok \d+(?:$| (?:- )?(.*)$)/.exec(trimmed);
    if (failure !== null && comment !== null) {
      failed = true;
      renamed.push(`not ok 0 - ${comment} > ${failure[1] ?? ""}`);
      continue;
    }
    if (comment !== null && !failed && THROWN.test(trimmed)) {
      failed = true;
      const header = renamed
        .slice(-UNCAUGHT_HEADER_LINES)
        .map((above) => UNCAUGHT_AT.exec(above.trim()))
        .find((match) => match !== null);
      renamed.push(`not ok 0 - ${comment}`);
      if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
        // No stack (a library set `Error.stackTraceLimit = 0`): Node's header says where.
        renamed.push(trimmed.slice(1, -1));
        if (header?.[1] !== undefined) renamed.push(`    at ${header[1]}:${header[2] ?? ""}`);
        continue;
      }
    }
    renamed.push(line);
  }
  return renamed;
}

/** A failure whose message is a value line rather than an error, given its assertion's name. */
function withMessage(failure: Failure): Failure {
  if (failure.message !== "" && !VALUE_LINE.test(failure.message)) return failure;
  const name = failure.test ?? "";
  const at = name.lastIndexOf(" > ");
  const leaf = at < 0 ? name : name.slice(at + 3);
  return { ...failure, message: leaf };
}
