import { readBoundary } from "./boundary-lines.js";
import { readCargoHeader, readPanic } from "./cargo-lines.js";
import { readCoverageThreshold } from "./coverage-lines.js";
import { readDiff } from "./diff-lines.js";
import { readErrorLine, readMatcherLine } from "./error-lines.js";
import { Extraction, type LineReader, type LogLine } from "./extraction.js";
import { finishDraft, newDraft, type FailureDraft } from "./failure-draft.js";
import type { Failure } from "../feedback.js";
import { fallbackFailures } from "./fallback-lines.js";
import { readGoLine } from "./go-lines.js";
import { readJestHeader } from "./jest-lines.js";
import { indentOf } from "./line-blocks.js";
import { readFrame, readLocationLine } from "./location-lines.js";
import { logLines } from "../clean/log-lines.js";
import { mergeFailures, type ExtractedFailure } from "./merge-failures.js";
import { readMochaTitle } from "./mocha-lines.js";
import { readPytestErrorLine, readPytestHeader } from "./pytest-lines.js";
import { readTapLine, readYamlKey } from "./tap-lines.js";
import { readTreeLine } from "./test-tree-lines.js";
import { readUnittestHeader } from "./unittest-lines.js";
import {
  readKeyValue,
  readListedCalls,
  readStrictInequality,
  readValueBelow,
} from "./value-lines.js";

/**
 * Readers of the lines that start or end a report — test headers of every runner, pass lines,
 * summaries, console captures — tried in this order; the first that knows a line reads it.
 */
const REPORT_READERS: readonly LineReader[] = [
  readCoverageThreshold,
  readGoLine,
  readCargoHeader,
  readPytestHeader,
  readUnittestHeader,
  readTapLine,
  readBoundary,
  readJestHeader,
  readTreeLine,
  readMochaTitle,
];

/**
 * Readers of the facts inside a report (or, outside any, the start of an orphan): values,
 * diffs, errors, frames, tried in this order. A line none of them knows is skipped.
 */
const DETAIL_READERS: readonly LineReader[] = [
  readYamlKey,
  readDiff,
  readValueBelow,
  readListedCalls,
  readKeyValue,
  readPanic,
  readPytestErrorLine,
  readErrorLine,
  readStrictInequality,
  readFrame,
  readMatcherLine,
  readLocationLine,
];

/**
 * The failing tests in raw test-runner output, whatever the runner: Jest/Vitest, node:test
 * (spec and TAP), Mocha, pytest and unittest, `go test`, cargo, TAP producers. ANSI and control
 * sequences are stripped and every line is cut before any pattern runs, so huge or hostile logs
 * stay linear. Each failure keeps its full test name, the first user frame's file and line,
 * expected and received exactly as printed, and the error's first line. Passing tests,
 * timings, banners and runtime frames are dropped; repeated reports of one test are merged. When
 * nothing structured is found in non-empty output, the most informative lines stand in, so a
 * failing run never yields empty feedback.
 */
export function extractFailures(output: string): Failure[] {
  const lines = logLines(output);
  const failures = mergeFailures(extract(lines));
  return failures.length > 0 ? failures : fallbackFailures(lines);
}

/**
 * The failures the output reports in any format the extractor reads, without the fallback
 * lines: per-runner parsers of text formats use it, so an all-passing run yields none.
 */
export function reportedFailures(output: string): Failure[] {
  return mergeFailures(extract(logLines(output)));
}

/**
 * One failure read from an error report already known to belong to `test` (a JSON or XML
 * report's failure text): its first line, values, diff and first user frame.
 */
export function failureFromReport(test: string, file: string | null, report: string): Failure {
  const known = newDraft("test", test, file);
  const found = extract(logLines(report), known);
  return found.find((entry) => entry.failure.test === test)?.failure ?? finishDraft(known);
}

/** Every failure report in the lines, in order, before merging. */
function extract(lines: readonly string[], known: FailureDraft | null = null): ExtractedFailure[] {
  const extraction = new Extraction(lines, known);
  let index = 0;
  while (index < lines.length) index = readLine(extraction, index);
  extraction.close();
  return extraction.finished;
}

/** Reads the line at `index` and any lines it owns; returns the next unread index. */
function readLine(extraction: Extraction, index: number): number {
  const raw = extraction.lines[index] ?? "";
  const trimmed = raw.trim();
  if (trimmed === "") return index + 1;
  const line: LogLine = { index, raw, trimmed, indent: indentOf(raw) };
  const report = firstRead(REPORT_READERS, extraction, line);
  if (report !== null) return report;
  if (extraction.muted) return index + 1;
  return firstRead(DETAIL_READERS, extraction, line) ?? index + 1;
}

/** The next index from the first reader that knows the line, or null when none does. */
function firstRead(
  readers: readonly LineReader[],
  extraction: Extraction,
  line: LogLine,
): number | null {
  for (const reader of readers) {
    const next = reader(extraction, line);
    if (next !== null) return next;
  }
  return null;
}
