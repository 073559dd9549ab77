import { logLines } from "../clean/log-lines.js";
import type { Failure, Priority, TestOutputParser } from "../feedback.js";
import { builtinParsers } from "../parsers/builtin-parsers.js";
import type { ReviewPoint } from "./review-point.js";
import { toolMessage } from "./review-point.js";

/** Severity marks a linter prints beside a finding: words, and Biome's and ESLint's icons. */
const SEVERITY_MARKS: readonly (readonly [RegExp, Priority])[] = [
  [/\b(?:error|fatal)\b|[✖×✗]/i, "high"],
  [/\bwarn(?:ing)?\b|[⚠!]/i, "medium"],
  [/\b(?:info|note|hint)\b|ℹ/i, "low"],
];

/** Whether a parsed failure is a lint or type-check finding rather than a failing test. */
function isFinding(failure: Failure): boolean {
  return failure.test === null && (failure.rule !== undefined || failure.column !== undefined);
}

/**
 * The level the tool printed beside a finding: the severity word or icon on the line that holds
 * its message (or the line before it, where Biome puts the header); high when none is found —
 * a finding fails the step that reports it.
 */
function findingPriority(lines: readonly string[], failure: Failure): Priority {
  const at = lines.findIndex((line) => failure.message !== "" && line.includes(failure.message));
  const levelIn = (line: string | undefined): Priority | undefined =>
    SEVERITY_MARKS.find(([mark]) => mark.test((line ?? "").replace(failure.message, "")))?.[1];
  return at < 0 ? "high" : (levelIn(lines[at]) ?? levelIn(lines[at - 1]) ?? "high");
}

/**
 * Lint and type-check output used as a review (a review step that runs ESLint, tsc, mypy,
 * clippy, …): the findings of the first per-runner parser that reads the text as findings only
 * (`test: null`, with a column or a rule), each a point at its file and line with its rule as
 * the label; null when no parser does, so the text is read as prose.
 */
export function lintFindingPoints(
  text: string,
  parsers: readonly TestOutputParser[] = builtinParsers,
): ReviewPoint[] | null {
  for (const parser of parsers) {
    if (!parser.detect(text)) continue;
    const failures = parser.parse(text);
    if (failures.length === 0 || !failures.every(isFinding)) continue;
    const lines = logLines(text);
    return failures.map((failure) => ({
      path: failure.file,
      line: failure.line,
      priority: findingPriority(lines, failure),
      message: toolMessage(failure.message, failure.rule ?? null),
      label: failure.rule ?? null,
    }));
  }
  return null;
}
