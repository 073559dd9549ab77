import { logLines } from "../clean/log-lines.js";
import type { Failure, Priority, TestOutputParser } from "../feedback.js";
import { builtinParsers } from "../parsers/builtin-parsers.js";
import type { ReviewPoint } from "./review-point.js";
import { toolMessage } from "./review-point.js";
import { toolLevelOf } from "./severity.js";

/** Severity marks a linter prints beside a finding: words, and Biome's and ESLint's icons. */
const SEVERITY_MARKS: readonly (readonly [RegExp, Priority])[] = [
  [/\b(?:error|fatal)\b|[✖×✗]/i, "high"],
  [/\bwarn(?:ing)?\b|[⚠!]/i, "medium"],
  [/\b(?:info|note|hint)\b|ℹ/i, "low"],
];

/**
 * Whether parsed failures are a lint or type-check run's findings rather than failing tests:
 * none names a test and some carry a column or a rule (one finding whose code the tool left
 * off, or the parser missed, does not make the run prose).
 */
function areFindings(failures: readonly Failure[]): boolean {
  return (
    failures.every((failure) => failure.test === null) &&
    failures.some((failure) => failure.rule !== undefined || failure.column !== undefined)
  );
}

/** A severity word a compiler starts its message with: rustc's `error:`, `warning[E0599]:`. */
const LEADING_LEVEL = /^(error|warning|note|info|help)(?:\[[^\]]{1,40}\])?:\s+/i;

/** A message id a finding's words start with when the parser left it there: Pylint's `E0606: …`. */
const LEADING_ID = /^([A-Z]{1,3}\d{3,4}):\s+/;

/** A finding with the message id its words start with as its rule, when it has none. */
function withLeadingId(failure: Failure): Failure {
  const id = failure.rule === undefined ? LEADING_ID.exec(failure.message) : null;
  return id === null || id[1] === undefined
    ? failure
    : { ...failure, rule: id[1], message: failure.message.slice(id[0].length) };
}

/** How much of a message's first line is looked for in the output: enough to find its line. */
const PROBE_LENGTH = 40;

/**
 * The level the tool printed beside a finding: the severity word its message starts with, else
 * the level on a line that holds its message and names one (see `toolLevelOf`: a Pylint id's
 * category too), else a severity word or icon there
 * (its first line, for a message that goes on below); medium when the tool prints none
 * (flake8's `F401 'sys' imported but unused`), as for any review point without a level.
 */
function findingPriority(lines: readonly string[], failure: Failure): Priority {
  const levelIn = (text: string): Priority | undefined =>
    SEVERITY_MARKS.find(([mark]) => mark.test(text))?.[1];
  const leading = LEADING_LEVEL.exec(failure.message)?.[1];
  if (leading !== undefined) return levelIn(leading) ?? "medium";
  const probe = (failure.message.split("\n", 1)[0] ?? "").slice(0, PROBE_LENGTH);
  if (probe === "") return "medium";
  // The same words can close another finding's explanation (tsc's `Type 'string' is not
  // assignable …` under a TS2345); the first line holding them that names a level decides.
  for (const line of lines) {
    if (!line.includes(probe)) continue;
    const level = toolLevelOf(line.trim()) ?? levelIn(line.replace(probe, ""));
    if (level !== undefined && level !== null) return level;
  }
  return "medium";
}

/**
 * Lint and type-check output used as a review (a review step that runs ESLint, tsc, mypy,
 * clippy, …): the findings of the first per-runner parser that reads the text as findings only
 * (`test: null`, some with a column or a rule), each a point at its file and line with its rule as
 * the label; null when no parser does, so the text is read as prose.
 */
export function lintFindingPoints(
  text: string,
  parsers: readonly TestOutputParser[] = builtinParsers,
): ReviewPoint[] | null {
  for (const parser of parsers) {
    if (!parser.detect(text)) continue;
    const failures = parser.parse(text);
    if (!areFindings(failures)) continue;
    const lines = logLines(text);
    return failures.map((raw) => {
      const failure = withLeadingId(raw);
      return {
        path: failure.file,
        line: failure.line,
        priority: findingPriority(lines, failure),
        message: toolMessage(failure.message.replace(LEADING_LEVEL, ""), failure.rule ?? null),
        label: failure.rule ?? null,
      };
    });
  }
  return null;
}
