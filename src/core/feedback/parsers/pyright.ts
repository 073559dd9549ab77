import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { indentOf } from "../extractor/line-blocks.js";
import { assignability, findingFailures, summedCounts, type Finding } from "./findings.js";

/** A diagnostic's first line: `  /abs/a.py:12:5 - error: message`, after its file's own line. */
const DIAGNOSTIC = /^(\S.*?):(\d+):(\d+) - (error|warning|information): (.*)$/;
/** pyright's closing counts: `6 errors, 0 warnings, 0 informations`. */
const SUMMARY = /^(\d+) errors?, (\d+) warnings?, (\d+) informations?\s*$/m;
/** The rule a diagnostic's last line ends with: `(reportArgumentType)`. */
const RULE = /\s\((report[A-Z]\w*)\)$/;

/**
 * pyright (the npm `pyright` CLI, and basedpyright): each file's path, then its diagnostics,
 * indented: `path:line:col - error: message`, continued on deeper lines, the last ending with the
 * rule (`(reportArgumentType)`), and the closing `N errors, M warnings, K informations`. Each
 * diagnostic is a finding; `Type "A" is not assignable to "B"` gives the sides (B expected).
 */
export const pyrightParser: TestOutputParser = {
  name: "pyright",
  detect: (output) =>
    SUMMARY.test(output) ||
    (output.includes(" - error: ") &&
      logLines(output).some((line) => DIAGNOSTIC.test(line.trim()))),
  parse: (output): readonly Failure[] => findingFailures(diagnostics(output)),
  reportedFailures: (output) => {
    const summary = SUMMARY.exec(output);
    return summary === null ? null : summedCounts([summary[1], summary[2], summary[3]]);
  },
};

/** Every diagnostic with its continuation lines and rule. */
function diagnostics(output: string): Finding[] {
  const lines = logLines(output);
  const found: Finding[] = [];
  lines.forEach((raw, index) => {
    const match = DIAGNOSTIC.exec(raw.trim());
    if (match === null) return;
    const parts = [match[5] ?? "", ...continuation(lines, index)];
    const last = parts.length - 1;
    const rule = RULE.exec(parts[last] ?? "");
    if (rule !== null) parts[last] = (parts[last] ?? "").slice(0, rule.index);
    const message = parts.filter((part) => part !== "").join("; ");
    found.push({
      file: match[1] ?? null,
      line: Number(match[2]),
      column: Number(match[3]),
      rule: rule?.[1],
      message,
      severity: match[4] === "error" ? "error" : match[4] === "warning" ? "warning" : "info",
      ...(assignability(message, '"') ?? {}),
    });
  });
  return found;
}

/** The lines indented deeper than the diagnostic at `index`. */
function continuation(lines: readonly string[], index: number): string[] {
  const indent = indentOf(lines[index] ?? "");
  const found: string[] = [];
  for (let cursor = index + 1; cursor < lines.length && found.length < 10; cursor += 1) {
    const line = lines[cursor] ?? "";
    if (line.trim() === "" || indentOf(line) <= indent) break;
    found.push(line.trim());
  }
  return found;
}
