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

/** The result read last, with the parsers it was read with: one, so nothing read stays held. */
let last:
  | {
      readonly result: TestResult;
      readonly parsers: readonly TestOutputParser[];
      readonly known: ReadTestResult;
    }
  | undefined;

/**
 * A failing test result's cleaned output and failures, read once for the readers that ask in
 * turn: a decision's signature, its escalation and its retry feedback all read the attempt just
 * run. Only the result read last is remembered, so a long task's history does not keep every
 * attempt's parse alive (its signatures are remembered apart, as short strings). Results are
 * values: one changed in place after it was read keeps what was read.
 */
export function readTestResult(
  result: TestResult,
  parsers: readonly TestOutputParser[] = builtinParsers,
): ReadTestResult {
  if (last !== undefined && last.result === result && last.parsers === parsers) return last.known;
  const output = cleanOutput(result.output);
  const known = {
    output,
    read: readTestOutput(output, {
      testsFailed: true,
      parsers,
      ...(result.reports === undefined ? {} : { reports: result.reports }),
    }),
  };
  last = { result, parsers, known };
  return known;
}
