import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { failureOf } from "../failure-of.js";

/** `app/users.py:13: error: Argument … [arg-type]`, with a column under `--show-column-numbers`. */
const FINDING = /^(\S+\.pyi?):(\d+):(?:(\d+):)? (error|note|warning): (.*)$/;

/** The error code mypy ends a message with: `  [arg-type]`. */
const CODE = /\[([a-z][a-z-]*)\]$/;

/** mypy's closing lines: `Found 7 errors in 2 files (checked 3 source files)`, `Success: no issues found …`. */
const FOUND = /^Found (\d+) errors? in \d+ files?\b/;
const SUCCESS = /^Success: no issues found in \d+ source files?$/;
/** What mypy says about its own run, never a wrapped message: `Warning: unused section(s) …`, `setup.cfg: [mypy]: …`. */
const RUN_NOTICE = /^(?:Warning: |\S+: \[mypy[^\]]*\]: )/;

/**
 * mypy's report, plain or `--pretty`: each `error` is a finding with `test: null`, its file,
 * line (and column when shown), its error code as the rule and its message; a `note` is part of
 * the error above it, never a finding. `--pretty` wraps a message onto the next lines and quotes
 * the source with a caret below; the wrapped words are joined back, the quote dropped. A
 * message ends at its error code, so what follows the last one (`Warning: unused section(s) …`)
 * is never read as its words.
 */
export const mypyParser: TestOutputParser = {
  name: "mypy",
  detect: (output) => {
    const lines = logLines(output).map((line) => line.trim());
    return (
      lines.some((line) => FOUND.test(line) || SUCCESS.test(line)) &&
      lines.some((line) => FINDING.test(line) || SUCCESS.test(line))
    );
  },
  parse: (output) => parseMypy(logLines(output)),
  reportedFailures: (output) => {
    for (const line of logLines(output)) {
      const found = FOUND.exec(line.trim());
      if (found !== null) return Number(found[1]);
      if (SUCCESS.test(line.trim())) return 0;
    }
    return null;
  },
};

/** A finding while its wrapped message lines are still being read. */
interface Reading {
  readonly file: string;
  readonly line: number;
  readonly column: number | null;
  words: string[];
}

/** One pass: each error line opens a finding, unindented lines after it continue its message. */
function parseMypy(lines: readonly string[]): Failure[] {
  const findings: Reading[] = [];
  let current: Reading | null = null;
  for (const line of lines) {
    const finding = FINDING.exec(line);
    if (finding !== null) {
      current = null;
      if (finding[4] !== "error") continue;
      current = {
        file: finding[1] ?? "",
        line: Number(finding[2]),
        column: finding[3] === undefined ? null : Number(finding[3]),
        words: [finding[5] ?? ""],
      };
      findings.push(current);
    } else if (
      // `--pretty` quotes the source indented, with a caret line; a summary ends the report.
      line.startsWith("    ") ||
      line.trim() === "" ||
      FOUND.test(line.trim()) ||
      RUN_NOTICE.test(line)
    ) {
      current = null;
    } else {
      current?.words.push(line.trim());
    }
    // The error code is the last thing mypy writes of a message: nothing after it continues it.
    if (current !== null && CODE.test(current.words.at(-1)?.trimEnd() ?? "")) current = null;
  }
  return findings.map(({ file, line, column, words }) => {
    const text = words.join(" ").trim();
    const code = CODE.exec(text);
    return failureOf({
      file,
      line,
      ...(column === null ? {} : { column }),
      ...(code?.[1] === undefined ? {} : { rule: code[1] }),
      message: code === null ? text : text.slice(0, code.index).trimEnd(),
    });
  });
}
