import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { TestOutputParser } from "../../core/feedback/feedback.js";
import {
  forcedParser,
  logFeedback,
  openLog,
  runnerNames,
  runnerParsers,
} from "../../feedback-stream/index.js";
import { readReportFile } from "../../feedback-stream/report-files.js";
import { render } from "../../wire/render.js";
import { toWire } from "../../wire/codec.js";
import { InputError } from "../../wire/input-error.js";
import { formatOf, type Command } from "../command.js";
import { INPUT_LIMIT_OPTION, maxInputBytesOf, tooLarge } from "../input-limit.js";
import { parseOptions } from "../parse-options.js";
import { UsageError } from "../usage-error.js";

/** The default cap (SPEC §3 `feedback_max_length`). */
const DEFAULT_MAX_LENGTH = 500;
const KINDS = ["test", "review"] as const;

/** `loopgate feedback`: SPEC §4 focused feedback from a test log or a review, read as a stream. */
export const feedbackCommand: Command = {
  help: `Usage: loopgate feedback [FILE|-] [--kind test|review] [--runner NAME]
                         [--report REPORT]... [--root DIR] [--max-length N] [--json]

Reads a test run's output (any size, coloured or not) or a reviewer's text and
prints focused feedback: a summary, actionable items, a priority and, for tests,
each failure's test, file, line, expected, received and message. Credentials are
redacted. The log is read as a stream: memory does not grow with its size.

Input comes from FILE or standard input (- or no FILE).

Options:
  --kind KIND       test (default): a test runner's output; review: a review
                    (text, Conventional Comments, GitHub review JSON, rdjson, SARIF)
  --runner NAME     read the output as NAME's (jest, vitest, pytest, …) instead of
                    detecting the runner; generic: the general extractor only
  --report REPORT   a machine-readable report the same run wrote (JUnit XML,
                    Jest/Vitest/Mocha JSON, go test -json, TAP, CTRF); its failures
                    come first, the log adds what it lacks (compile errors,
                    crashes); repeat for several; with no FILE and a terminal on
                    standard input, the reports are read alone
  --root DIR        the project's directory: paths under it are printed relative
                    to it (default: the current directory; a project root the
                    log's own paths show is cut too)
  --max-length N    cap on summary plus items, in characters (default 500)
  --max-input-bytes N
                    refuse a review larger than N bytes (default 16777216,
                    16 MiB): a review is one document; test logs are read as
                    a stream, of any size
  --json            print JSON instead of YAML (same keys)
  -h, --help

Example:
  $ npx vitest run 2>&1 | loopgate feedback
  feedback:
    summary: "Test failed: expected 4, received 3 (+4 more)"
    actionable_items:
      - "test/cart.test.js:6 cart > sums prices: expected 4, received 3 (AssertionError: expected 3 to be 4 // Object.is equality)"
      - "src/account.js:10 cart > parses ids: RangeError: empty id"
      - 'test/token.test.js:6 login > returns a numeric userId: expected 123, received "123"'
      ...
    priority: high
    failures:
      - test: cart > sums prices
        file: test/cart.test.js
        line: 6
        expected: "4"
        received: "3"
        message: "AssertionError: expected 3 to be 4 // Object.is equality"
      ...
    runner: vitest

Exit codes: 0 feedback was printed, 2 invalid input or arguments, 1 internal error.
`,
  async run({ args, stdout }) {
    const { values, positionals } = parseOptions(
      "feedback",
      args,
      {
        json: { type: "boolean" },
        kind: { type: "string" },
        runner: { type: "string" },
        "max-length": { type: "string" },
        root: { type: "string" },
        report: { type: "string", multiple: true },
        ...INPUT_LIMIT_OPTION,
      },
      1,
    );
    const kind = kindOf(values.kind);
    const maxLength = maxLengthOf(values["max-length"]);
    const parsers = values.runner === undefined ? runnerParsers : [parserNamed(values.runner)];
    if (kind === "review" && values.runner !== undefined) {
      throw new UsageError("feedback: --runner applies to --kind test only");
    }
    const limit = maxInputBytesOf("feedback", values["max-input-bytes"]);
    const file = positionals[0];
    const root = rootOf(values.root);
    const reportFiles = values.report ?? [];
    if (kind === "review" && reportFiles.length > 0) {
      throw new UsageError("feedback: --report applies to --kind test only");
    }
    const reports = reportFiles.map(readReportFile);
    const alone = reports.length > 0 && file === undefined && process.stdin.isTTY;
    const { feedback } = await readLog(alone ? null : file, (source) =>
      logFeedback(kind === "review" ? bounded(source, limit, file) : source, {
        kind,
        maxLength,
        parsers,
        root,
        reports,
      }),
    );
    stdout(render(toWire({ feedback }), formatOf(values.json)));
    return 0;
  },
};

function kindOf(value: string | undefined): (typeof KINDS)[number] {
  if (value === undefined) return "test";
  const kind = KINDS.find((known) => known === value);
  if (kind === undefined) {
    throw new UsageError(`feedback: --kind must be test or review, got "${value}"`);
  }
  return kind;
}

/** `--root DIR`, which must be a directory; the current directory by default. */
function rootOf(value: string | undefined): string {
  if (value === undefined) return process.cwd();
  const root = resolve(value);
  let directory = false;
  try {
    directory = statSync(root).isDirectory();
  } catch {
    // Reported below, as for a path that is not a directory.
  }
  if (!directory) throw new UsageError(`feedback: --root must be a directory, got "${value}"`);
  return root;
}

function maxLengthOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_LENGTH;
  const length = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(length) || length < 1) {
    throw new UsageError(`feedback: --max-length must be an integer >= 1, got "${value}"`);
  }
  return length;
}

/** The parser `--runner NAME` forces; unknown names are usage errors listing the known ones. */
function parserNamed(name: string): TestOutputParser {
  const parser = forcedParser(name);
  if (parser === null) {
    throw new UsageError(
      `feedback: unknown --runner "${name}" (known: ${runnerNames().join(", ")})`,
    );
  }
  return parser;
}

/** A stream with nothing in it. */
async function* noInput(): AsyncGenerator<Uint8Array> {}

/** The source's bytes, refused as a whole once they pass `limit`: a review is a document. */
async function* bounded(
  source: AsyncIterable<Uint8Array>,
  limit: number,
  file: string | undefined,
): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > limit)
      throw tooLarge(file === undefined || file === "-" ? "stdin" : file, null, limit);
    yield chunk;
  }
}

/**
 * Runs `read` on FILE's bytes or standard input's (none for `null`: reports read alone); an
 * unreadable file is invalid input.
 */
async function readLog<T>(
  file: string | undefined | null,
  read: (source: AsyncIterable<Uint8Array>) => Promise<T>,
): Promise<T> {
  if (file === null) return read(noInput());
  if (file === undefined || file === "-") {
    if (file === undefined && process.stdin.isTTY) {
      throw new UsageError("no input: give a FILE, or pipe a log on standard input");
    }
    return read(process.stdin);
  }
  try {
    return await read(openLog(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code.startsWith("E")) {
      throw new InputError(file, `cannot read the file (${code})`);
    }
    throw error;
  }
}
