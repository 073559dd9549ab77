import { stripAnsi } from "./clean/ansi.js";
import { builtinParsers } from "./parsers/builtin-parsers.js";
import { codePointLength, toWellFormed, truncateCodePoints } from "./clean/code-points.js";
import type { Failure, TestFeedback, TestOutputParser } from "./feedback.js";
import { failureGist, failureItemForms } from "./fit/feedback-items.js";
import { fitFeedback, type FittedFeedback, type ItemForms } from "./fit/fit-feedback.js";
import { extractFailures, reportedFailures } from "./extractor/general-extractor.js";
import { stripLinePrefixes } from "./clean/line-prefixes.js";
import { withoutProjectRoot } from "./clean/project-root.js";
import { redact } from "../redaction/redaction.js";

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
  /**
   * Per-runner parsers tried in order before the general extractor: `builtinParsers` when
   * omitted, one parser to force a runner (`--runner NAME`), `[]` for the general extractor only.
   */
  readonly parsers?: readonly TestOutputParser[];
  /**
   * The caller knows the run failed (decide's `status: fail`): feedback is then never empty, and
   * lines that look like errors stand in when no parser finds a failing test. Without it, a
   * runner's parser that finds none is believed — an all-passing log yields no failures.
   */
  readonly testsFailed?: boolean;
}

/**
 * Test output as every reader of it sees it: ANSI stripped, the prefixes a CI log or a
 * multiplexer puts before every line removed, lone surrogates replaced, paths under the
 * project's root made relative to it, credentials redacted — before anything is read, cut,
 * printed or stored.
 */
export function cleanOutput(output: string): string {
  return redact(withoutProjectRoot(toWellFormed(stripLinePrefixes(stripAnsi(output)))));
}

/**
 * Focused feedback from a failing run's output (SPEC §4): credentials redacted and ANSI stripped
 * before anything is read, failures taken from the first parser that detects the output and
 * finds any (else from the general extractor), then a summary and one item per failure fitted
 * to `maxLength`. Parsers receive that cleaned text. Test failures are always high priority.
 */
export function testFeedback(output: string, options: TestFeedbackOptions): TestFeedback {
  return feedbackFromCleanOutput(cleanOutput(output), options);
}

/** `testFeedback` for output that already went through `cleanOutput`, so it is not cleaned twice. */
export function feedbackFromCleanOutput(text: string, options: TestFeedbackOptions): TestFeedback {
  const testsFailed = options.testsFailed ?? false;
  const { failures, runner, passed } = parse(text, options.parsers ?? builtinParsers, testsFailed);
  const safe = failures.map(redactFailure);
  const summary = passed ? `No failing test in the ${runner} output` : summarize(safe);
  const items = safe
    .slice(0, MAX_ITEMS)
    .map((failure, index) => failureItemForms(failure, safe[index - 1]));
  const fitted = fitFeedback(summary, items, options.maxLength);
  return {
    ...withRestCounted(fitted, safe, summary, items, options.maxLength),
    priority: passed ? "low" : "high",
    failures: safe,
    runner,
  };
}

/**
 * Feedback that lists only some failures ends with a count of the rest and of their files
 * (`+7 more failing tests in 3 files`), so the reader knows the list is not the whole story.
 * The count's room is reserved at its longest (every failure, every file) and the items fitted
 * again into what is left; when even that leaves no item, the first fit stands.
 */
function withRestCounted(
  fitted: FittedFeedback,
  failures: readonly Failure[],
  summary: string,
  items: readonly ItemForms[],
  maxLength: number,
): FittedFeedback {
  if (fitted.actionableItems.length >= failures.length) return fitted;
  const longest = restCount(failures);
  const refitted = fitFeedback(summary, items, maxLength - codePointLength(longest));
  if (refitted.actionableItems.length === 0) return fitted;
  return {
    summary: refitted.summary,
    actionableItems: [
      ...refitted.actionableItems,
      restCount(failures.slice(refitted.actionableItems.length)),
    ],
  };
}

/** `+N more failing tests in F files`, files counted where the failures name one. */
function restCount(rest: readonly Failure[]): string {
  const files = new Set(rest.flatMap((failure) => (failure.file === null ? [] : [failure.file])));
  const tests = `+${rest.length} more failing test${rest.length === 1 ? "" : "s"}`;
  return files.size === 0 ? tests : `${tests} in ${files.size} file${files.size === 1 ? "" : "s"}`;
}

/**
 * Failures from the first parser that recognizes the text and finds any, else what the general
 * extractor reads. When a parser recognized the text and nothing reports a failure, the run
 * passed — unless the caller knows it failed, when the extractor's error-looking lines stand in.
 */
function parse(
  text: string,
  parsers: readonly TestOutputParser[],
  testsFailed: boolean,
): { failures: readonly Failure[]; runner: string; passed: boolean } {
  let recognizedBy: string | undefined;
  for (const parser of parsers) {
    if (!parser.detect(text)) continue;
    recognizedBy ??= parser.name;
    const failures = parser.parse(text);
    if (failures.length > 0) return { failures, runner: parser.name, passed: false };
  }
  if (recognizedBy !== undefined && !testsFailed) {
    const reported = reportedFailures(text);
    return reported.length > 0
      ? { failures: reported, runner: GENERIC_RUNNER, passed: false }
      : { failures: [], runner: recognizedBy, passed: true };
  }
  return { failures: extractFailures(text), runner: GENERIC_RUNNER, passed: false };
}

/** `Test failed: <first failure's gist> (+N more)`. */
function summarize(failures: readonly Failure[]): string {
  const [first] = failures;
  if (first === undefined) return "Test failed with no output";
  const gist = truncateCodePoints(failureGist(first), MAX_GIST_LENGTH);
  const more = failures.length - 1;
  // The items say what the others are; the summary only counts them.
  return more === 0 ? `Test failed: ${gist}` : `Test failed: ${gist} (+${more} more)`;
}

/** A parser's failure with credentials redacted: parsers are plug-ins, their output is not trusted. */
function redactFailure(failure: Failure): Failure {
  const optional = (value: string | null): string | null => (value === null ? null : redact(value));
  return {
    ...failure,
    test: optional(failure.test),
    file: optional(failure.file),
    line: failure.line,
    expected: optional(failure.expected),
    received: optional(failure.received),
    message: redact(failure.message),
    ...(failure.rule === undefined ? {} : { rule: redact(failure.rule) }),
    ...(failure.testLocation === undefined
      ? {}
      : { testLocation: { ...failure.testLocation, file: redact(failure.testLocation.file) } }),
  };
}
