import type { TestResult } from "../iteration-check.js";
import type { TestOutputParser } from "./feedback.js";
import { builtinParsers } from "./parsers/builtin-parsers.js";
import { cleanOutput, readTestOutput, type TestRead } from "./test-feedback.js";

/** A failing test result read once: its output as every reader sees it, and what it says failed. */
export interface ReadTestResult {
  /** The output after `cleanOutput`: no ANSI, paths made relative, credentials redacted. */
  readonly output: string;
  readonly read: TestRead;
}

/** Results already read, per parser set, per result object: weakly held, gone with the result. */
const memo = new WeakMap<readonly TestOutputParser[], WeakMap<TestResult, ReadTestResult>>();

/**
 * A failing test result's cleaned output and failures, read once per result object however many
 * readers ask: a decision's signature, reasons and retry feedback all read the attempt just run,
 * and a long task's history holds the same result objects from one decision to the next.
 * Results are values: one changed in place after it was read keeps what was read.
 */
export function readTestResult(
  result: TestResult,
  parsers: readonly TestOutputParser[] = builtinParsers,
): ReadTestResult {
  let byResult = memo.get(parsers);
  if (byResult === undefined) {
    byResult = new WeakMap();
    memo.set(parsers, byResult);
  }
  let known = byResult.get(result);
  if (known === undefined) {
    const output = cleanOutput(result.output);
    known = {
      output,
      read: readTestOutput(output, {
        testsFailed: true,
        parsers,
        ...(result.reports === undefined ? {} : { reports: result.reports }),
      }),
    };
    byResult.set(result, known);
  }
  return known;
}
