import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { failureOf } from "../failure-of.js";

/**
 * A finding of flake8, pycodestyle or pyflakes: `./app/a.py:12:89: E501 line too long (101 > 88
 * characters)`; pyflakes names no code (`app/a.py:1:1: 'os' imported but unused`). mypy's
 * `error:`/`note:` lines are not findings of these tools.
 */
const FINDING =
  /^(\S+\.pyi?):(\d+):(\d+): (?:([A-Z]{1,6}\d{1,4}) )?(?:\[\*\] )?(?!(?:error|warning|note): )(\S.*)$/;

/** The `--count` total flake8 prints last: a number alone on its line. */
const COUNT = /^\d+$/;

/**
 * flake8 (and pycodestyle or pyflakes run alone): each `path:line:col: CODE message` is a
 * finding with `test: null`, its file, line, column, code as the rule and message;
 * `--show-source`'s quoted lines and carets are not. The runner's count is `--count`'s total,
 * else the number of findings.
 */
export const flake8Parser: TestOutputParser = {
  name: "flake8",
  detect: (output) => logLines(output).some((line) => FINDING.test(line)),
  parse: (output) => lintLineFindings(logLines(output)),
  reportedFailures: (output) => {
    const lines = logLines(output).filter((line) => line.trim() !== "");
    const last = lines.at(-1)?.trim();
    return last !== undefined && COUNT.test(last) ? Number(last) : lintLineFindings(lines).length;
  },
};

/**
 * Each `path:line:col: CODE message` line as a finding (ruff's concise lines too, its `[*]`
 * fixable mark dropped).
 */
export function lintLineFindings(lines: readonly string[]): Failure[] {
  return lines.flatMap((line) => {
    const finding = FINDING.exec(line);
    if (finding === null) return [];
    return [
      failureOf({
        file: finding[1]?.replace(/^\.\//, "") ?? null,
        line: Number(finding[2]),
        column: Number(finding[3]),
        ...(finding[4] === undefined ? {} : { rule: finding[4] }),
        message: finding[5] ?? "",
      }),
    ];
  });
}
