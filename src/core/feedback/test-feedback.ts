import { stripAnsi } from "./ansi.js";
import { toWellFormed, truncateCodePoints } from "./code-points.js";
import type { Failure, TestFeedback, TestOutputParser } from "./feedback.js";
import { failureGist, failureItem } from "./feedback-items.js";
import { fitFeedback } from "./fit-feedback.js";
import { extractFailures } from "./general-extractor.js";
import { redact } from "./redaction.js";

/** Failures that get an item; the summary counts the rest. */
const MAX_ITEMS = 10;
/** Longest gist in a summary, so the summary never crowds out the first failure's facts. */
const MAX_GIST_LENGTH = 120;
/** The runner name reported when no per-runner parser understood the output. */
export const GENERIC_RUNNER = "generic";

/** Options for `testFeedback`. */
export interface TestFeedbackOptions {
  /** Cap on `summary` plus all items, in code points (SPEC §3 `feedback_max_length`). */
  readonly maxLength: number;
  /** Per-runner parsers tried in order before the general extractor. */
  readonly parsers?: readonly TestOutputParser[];
}

/**
 * Focused feedback from a failing run's output (SPEC §4): credentials redacted and ANSI stripped
 * before anything is read, failures taken from the first parser that detects the output and
 * finds any (else from the general extractor), then a summary and one item per failure fitted
 * to `maxLength`. Parsers receive that cleaned text. Test failures are always high priority.
 */
export function testFeedback(output: string, options: TestFeedbackOptions): TestFeedback {
  const text = redact(toWellFormed(stripAnsi(output)));
  const { failures, runner } = parse(text, options.parsers ?? []);
  const safe = failures.map(redactFailure);
  const fitted = fitFeedback(
    summarize(safe),
    safe.slice(0, MAX_ITEMS).map(failureItem),
    options.maxLength,
  );
  return { ...fitted, priority: "high", failures: safe, runner };
}

/** Failures from the first parser that recognizes and understands the text, else the general extractor's. */
function parse(
  text: string,
  parsers: readonly TestOutputParser[],
): { failures: readonly Failure[]; runner: string } {
  for (const parser of parsers) {
    if (!parser.detect(text)) continue;
    const failures = parser.parse(text);
    if (failures.length > 0) return { failures, runner: parser.name };
  }
  return { failures: extractFailures(text), runner: GENERIC_RUNNER };
}

/** `Test failed: <first failure's gist>`, counting the others. */
function summarize(failures: readonly Failure[]): string {
  const [first] = failures;
  if (first === undefined) return "Test failed with no output";
  const gist = truncateCodePoints(failureGist(first), MAX_GIST_LENGTH);
  const more = failures.length - 1;
  if (more === 0) return `Test failed: ${gist}`;
  // Lines the fallback kept are errors seen, not tests counted.
  const noun = failures.every((failure) => failure.test === null) ? "error" : "failing test";
  return `Test failed: ${gist} (+${more} more ${noun}${more === 1 ? "" : "s"})`;
}

/** A parser's failure with credentials redacted: parsers are plug-ins, their output is not trusted. */
function redactFailure(failure: Failure): Failure {
  const optional = (value: string | null): string | null => (value === null ? null : redact(value));
  return {
    test: optional(failure.test),
    file: optional(failure.file),
    line: failure.line,
    expected: optional(failure.expected),
    received: optional(failure.received),
    message: redact(failure.message),
  };
}
