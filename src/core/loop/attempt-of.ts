import type { Attempt, TestResult } from "../iteration-check.js";
import type { TestOutcome } from "./step-outcome.js";
import type { CurrentAttempt } from "./loop-state.js";

/**
 * The attempt as `decide` reads it. A generate step that failed ends the attempt: it is read as
 * a failed test whose output is the generate step's, so the retry feedback says what broke.
 * A missing test step passes and a missing review approves (SPEC §3: a loop without a reviewer
 * reports `approve`); a review that never ran after a failed generate stays pending.
 */
export function attemptOf(iteration: number, current: CurrentAttempt): Attempt {
  const generate = current.generate;
  const generateFailed = generate !== undefined && (generate.exitCode !== 0 || generate.timedOut);
  const testResult = generateFailed
    ? {
        status: "fail" as const,
        output: `generate step failed: ${describeEnd(generate)}\n${generate.output}`,
      }
    : current.test === undefined
      ? { status: "pass" as const, output: "" }
      : testResultOf(current.test);
  const reviewResult = generateFailed
    ? { status: "pending" as const, feedback: "" }
    : current.review === undefined
      ? { status: "approve" as const, feedback: "" }
      : { status: current.review.status, feedback: current.review.feedback };
  const diff = generate?.diff;
  const score = current.review?.score;
  return {
    iteration,
    testResult,
    reviewResult,
    ...(diff === undefined ? {} : { diff }),
    ...(score === undefined ? {} : { score }),
  };
}

/** The test step's result as decide reads it: status, output, and reports when it wrote any. */
function testResultOf(test: TestOutcome): TestResult {
  const { status, output, reports } = test;
  return reports === undefined || reports.length === 0
    ? { status, output }
    : { status, output, reports };
}

/** How a process ended, in words. */
export function describeEnd(measure: { exitCode: number | null; timedOut: boolean }): string {
  if (measure.timedOut) return "timed out";
  return measure.exitCode === null ? "killed by a signal" : `exit code ${measure.exitCode}`;
}
