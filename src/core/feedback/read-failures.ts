import { extractFailures, reportedFailures } from "./extractor/general-extractor.js";
import type { Failure, TestOutputParser } from "./feedback.js";

/** The runner name reported when no per-runner parser understood the output. */
export const GENERIC_RUNNER = "generic";

/** What a test run's text says failed, and who read it. */
export interface ReadFailures {
  readonly failures: readonly Failure[];
  /** The parser that read them (`generic` for the general extractor). */
  readonly runner: string;
  /** A parser recognised the text and it reports no failing test. */
  readonly passed: boolean;
  /** How many tests the runner itself says failed, when its parser reads the count. */
  readonly reported?: number;
}

/**
 * Failures from the first parser that recognizes the text and finds any, else what the general
 * extractor reads. When a parser recognized the text and nothing reports a failure, the run
 * passed — unless the caller knows it failed, when the extractor's error-looking lines stand in.
 */
export function readFailures(
  text: string,
  parsers: readonly TestOutputParser[],
  testsFailed: boolean,
): ReadFailures {
  let recognizedBy: string | undefined;
  for (const parser of parsers) {
    if (!parser.detect(text)) continue;
    recognizedBy ??= parser.name;
    const failures = parser.parse(text);
    if (failures.length > 0) {
      const reported = parser.reportedFailures?.(text) ?? null;
      return {
        failures,
        runner: parser.name,
        passed: false,
        ...(reported === null ? {} : { reported }),
      };
    }
  }
  if (recognizedBy !== undefined && !testsFailed) {
    const reported = reportedFailures(text);
    return reported.length > 0
      ? { failures: reported, runner: GENERIC_RUNNER, passed: false }
      : { failures: [], runner: recognizedBy, passed: true };
  }
  return { failures: extractFailures(text), runner: GENERIC_RUNNER, passed: false };
}
