import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { failureOf } from "../failure-of.js";
import { parseLocation } from "../extractor/stack-frames.js";
import { lintLineFindings } from "./flake8.js";

/** ruff's closing lines: `Found 9 errors.`, `Found 3 errors (1 fixed, 2 remaining).`, `All checks passed!`. */
const FOUND = /^Found (\d+) errors?(?: \(\d+ fixed, (\d+) remaining\))?\.$/;
const PASSED = "All checks passed!";

/** A diagnostic's header in ruff's full format since 0.12: `F401 [*] \`os\` imported but unused`. */
const HEADER = /^([A-Z]{1,6}\d{1,4}|[a-z]+(?:-[a-z]+)+):? (?:\[\*\] )?(\S.*)$/;

/** The location under it: ` --> app/report.py:1:8`. */
const ARROW = /^-->\s+(\S+:\d+:\d+)$/;

/**
 * ruff check: `--output-format concise` (`app/a.py:1:8: F401 [*] \`os\` imported but unused`) and
 * `full`, both before 0.12 (the concise line above a source excerpt) and since (`F401 [*] …`
 * with ` --> app/a.py:1:8` below, as rustc prints). Each diagnostic is a finding with
 * `test: null`, its file, line, column, rule code and message; `Found N errors.` is its count.
 */
export const ruffParser: TestOutputParser = {
  name: "ruff",
  detect: (output) =>
    logLines(output).some((line) => FOUND.test(line.trim()) || line.trim() === PASSED),
  parse: (output) => {
    const lines = logLines(output);
    return [...lintLineFindings(lines), ...arrowFindings(lines)];
  },
  reportedFailures: (output) => {
    for (const line of logLines(output)) {
      const found = FOUND.exec(line.trim());
      if (found !== null) return Number(found[2] ?? found[1]);
      if (line.trim() === PASSED) return 0;
    }
    return null;
  },
};

/** Full-format diagnostics since ruff 0.12: a header line, then its ` --> path:line:col`. */
function arrowFindings(lines: readonly string[]): Failure[] {
  const found: Failure[] = [];
  lines.forEach((line, index) => {
    const header = HEADER.exec(line);
    const arrow = ARROW.exec((lines[index + 1] ?? "").trim());
    const where = arrow?.[1] === undefined ? null : parseLocation(arrow[1]);
    if (header?.[1] === undefined || where === null) return;
    found.push(
      failureOf({
        ...where,
        column: Number(arrow?.[1]?.split(":").at(-1)),
        rule: header[1],
        message: header[2] ?? "",
      }),
    );
  });
  return found;
}
