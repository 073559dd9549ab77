import type { Failure, TestOutputParser } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { findingFailures, summedCounts, type Finding, type Severity } from "./findings.js";

/** Stylish's closing count: `✖ 8 problems (5 errors, 3 warnings)`. */
const STYLISH_SUMMARY = /^✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)/m;
/** The closing count of `--format unix` and `--format compact`: `8 problems`. */
const PLAIN_SUMMARY = /^(\d+) problems?$/m;
/** A stylish finding: `  4:20  error  Expected '===' and instead saw '=='  eqeqeq`. */
const STYLISH_FINDING = /^\s+(\d+):(\d+)\s+(error|warning)\s+(\S.*)$/;
/** `--format unix`'s `path:4:20: message [Error/eqeqeq]`: the place, then the rest. */
const UNIX_PLACE = /:(\d+):(\d+): /;
/** `--format compact`'s `path: line 4, col 20, Error - message (eqeqeq)`, after the path. */
const COMPACT_FINDING = /^: line (\d+), col (\d+), (Error|Warning) - (.*)$/;

/**
 * ESLint 8–10 (SPEC §4 findings): the default `stylish` formatter (a file's path, then its
 * `LINE:COL  error  message  rule` lines, then `✖ N problems (E errors, W warnings)`), and the
 * `unix` (`path:line:col: message [Error/rule]`) and `compact` (`path: line L, col C, Error -
 * message (rule)`) formats. Each finding is a failure with `test: null`, its column and rule
 * (none for a parsing error); errors come before warnings.
 */
export const eslintParser: TestOutputParser = {
  name: "eslint",
  detect: (output) =>
    STYLISH_SUMMARY.test(output) ||
    ((output.includes(" [Error") || output.includes(" [Warning") || output.includes(", col ")) &&
      logLines(output).some((line) => plainFinding(line.trim()) !== null)),
  parse: (output): readonly Failure[] => findingFailures(findings(output)),
  reportedFailures: (output) => {
    const stylish = STYLISH_SUMMARY.exec(output);
    if (stylish !== null) return summedCounts([stylish[2], stylish[3]]);
    return summedCounts([PLAIN_SUMMARY.exec(output)?.[1]]);
  },
};

/** Every finding in the output, in any of the three formats. */
function findings(output: string): Finding[] {
  const found: Finding[] = [];
  let file: string | null = null;
  for (const raw of logLines(output)) {
    const trimmed = raw.trim();
    if (trimmed === "") continue;
    const stylish = file === null ? null : STYLISH_FINDING.exec(raw);
    if (stylish !== null) {
      found.push(stylishFinding(file, stylish));
      continue;
    }
    const plain = plainFinding(trimmed);
    if (plain !== null) {
      found.push(plain);
      file = null;
      continue;
    }
    // Stylish names a file on a line of its own, unindented, before its findings.
    file = raw === trimmed && isPath(trimmed) ? trimmed : null;
  }
  return found;
}

/** A stylish finding line under `file`; its rule is the last column, two spaces or more away. */
function stylishFinding(file: string | null, match: RegExpExecArray): Finding {
  const rest = (match[4] ?? "").trimEnd();
  const gap = rest.lastIndexOf("  ");
  const rule = gap < 0 ? "" : rest.slice(gap).trim();
  const message = gap < 0 || /\s/.test(rule) ? rest : rest.slice(0, gap).trim();
  return {
    file,
    line: Number(match[1]),
    column: Number(match[2]),
    rule: message === rest ? undefined : rule,
    message,
    severity: match[3] === "warning" ? "warning" : "error",
  };
}

/** A `--format unix` or `--format compact` finding, or null. */
function plainFinding(trimmed: string): Finding | null {
  const compactAt = trimmed.indexOf(": line ");
  if (compactAt > 0) {
    const compact = COMPACT_FINDING.exec(trimmed.slice(compactAt));
    if (compact !== null) {
      const { message, rule } = withTrailingRule(compact[4] ?? "", " (", ")");
      return {
        file: trimmed.slice(0, compactAt),
        line: Number(compact[1]),
        column: Number(compact[2]),
        rule,
        message,
        severity: compact[3] === "Warning" ? "warning" : "error",
      };
    }
  }
  const tag = trimmed.lastIndexOf(" [");
  const place = UNIX_PLACE.exec(trimmed);
  if (tag < 0 || !trimmed.endsWith("]") || place === null || place.index === 0) return null;
  // Plugin rules have slashes of their own: `[Error/@typescript-eslint/no-unused-vars]`.
  const tagText = trimmed.slice(tag + 2, -1);
  const slash = tagText.indexOf("/");
  const severity = slash < 0 ? tagText : tagText.slice(0, slash);
  const rule = slash < 0 ? undefined : tagText.slice(slash + 1);
  if (severity !== "Error" && severity !== "Warning") return null;
  return {
    file: trimmed.slice(0, place.index),
    line: Number(place[1]),
    column: Number(place[2]),
    rule,
    message: trimmed.slice(place.index + place[0].length, tag),
    severity: severityOf(severity),
  };
}

/** `message (rule)` split, when the parentheses close the text and hold one word. */
function withTrailingRule(
  text: string,
  open: string,
  close: string,
): { message: string; rule: string | undefined } {
  const at = text.lastIndexOf(open);
  const rule = at < 0 || !text.endsWith(close) ? "" : text.slice(at + open.length, -close.length);
  return rule === "" || /\s/.test(rule)
    ? { message: text, rule: undefined }
    : { message: text.slice(0, at), rule };
}

/** `Error`/`Warning` as a severity. */
function severityOf(word: string): Severity {
  return word === "Warning" ? "warning" : "error";
}

/**
 * Whether a line is a file's path as stylish prints it (absolute, or relative once the project's
 * root is cut: `index.js`), ending with an extension: no column gap and no `: ` of a message, and
 * a space only inside a path with separators.
 */
function isPath(trimmed: string): boolean {
  return (
    (trimmed.includes("/") || trimmed.includes("\\") || !/\s/.test(trimmed)) &&
    !trimmed.includes("  ") &&
    !trimmed.includes(": ") &&
    /\.\w+$/.test(trimmed)
  );
}
