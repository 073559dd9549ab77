import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { failureOf } from "../failure-of.js";

/** A diagnostic: `  src/a.py:8:39 - error: "dumps" is unknown import symbol (reportAttributeAccessIssue)`. */
const DIAGNOSTIC = /^(\S+\.pyi?):(\d+):(\d+) - (error|warning|information): (.*)$/;

/** The rule pyright ends a diagnostic's last line with: `(reportReturnType)`. */
const RULE = /\((report[A-Z]\w*)\)$/;

/** The closing count: `5 errors, 0 warnings, 0 informations`. */
const TOTALS = /^(\d+) errors?, (\d+) warnings?, \d+ informations?\s*$/;

/**
 * pyright's (and basedpyright's) console report: each `error` or `warning` under its file's
 * heading is a finding with `test: null`, its file, line, column, rule (`reportReturnType`, on
 * the diagnostic's last line when the message continues below it) and message, continuation
 * lines joined. Informations are not findings.
 */
export const pyrightParser: TestOutputParser = {
  name: "pyright",
  detect: (output) => {
    const lines = logLines(output).map((line) => line.trim());
    return lines.some((line) => TOTALS.test(line)) && lines.some((line) => DIAGNOSTIC.test(line));
  },
  parse: (output) => {
    const findings: { failure: Failure; words: string[] }[] = [];
    let current: { failure: Failure; words: string[] } | null = null;
    for (const line of logLines(output)) {
      const trimmed = line.trim();
      const diagnostic = DIAGNOSTIC.exec(trimmed);
      if (diagnostic !== null) {
        current =
          diagnostic[4] === "information"
            ? null
            : {
                failure: failureOf({
                  file: diagnostic[1] ?? null,
                  line: Number(diagnostic[2]),
                  column: Number(diagnostic[3]),
                }),
                words: [diagnostic[5] ?? ""],
              };
        if (current !== null) findings.push(current);
      } else if (current !== null && /^\s{4,}\S/.test(line)) {
        current.words.push(trimmed);
      } else {
        current = null;
      }
    }
    return findings.map(({ failure, words }) => {
      const text = words.join(" ");
      const rule = RULE.exec(text);
      return {
        ...failure,
        message: rule === null ? text : text.slice(0, rule.index).trimEnd(),
        ...(rule?.[1] === undefined ? {} : { rule: rule[1] }),
      };
    });
  },
  reportedFailures: (output) => {
    for (const line of logLines(output)) {
      const totals = TOTALS.exec(line.trim());
      if (totals !== null) return Number(totals[1]) + Number(totals[2]);
    }
    return null;
  },
};
