import type { TestOutputParser } from "../feedback/feedback.js";
import type { AttemptLike } from "./attempt-like.js";
import { attemptRecords, type AttemptRecord } from "./attempt-record.js";
import { formatReason } from "./short-reason.js";

/** One summary line per attempt: `Iteration 2: Test failed - token missing userId`. */
export function summaryLines(records: readonly AttemptRecord[]): string[] {
  return records.map((record) => `Iteration ${record.iteration}: ${formatReason(record.reason)}`);
}

/** The summary of already-read attempts: one newline-terminated line each. */
export function summaryText(records: readonly AttemptRecord[]): string {
  return summaryLines(records)
    .map((line) => `${line}\n`)
    .join("");
}

/** The story of a task's attempts, one newline-terminated `Iteration N: …` line each, oldest first. */
export function attemptsSummary(
  attempts: readonly AttemptLike[],
  parsers?: readonly TestOutputParser[],
): string {
  return summaryText(attemptRecords(attempts, parsers));
}
