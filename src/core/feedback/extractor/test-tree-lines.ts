import type { LineReader } from "./extraction.js";
import { newDraft } from "./failure-draft.js";

/**
 * A progress tree's lines: a failed test (`× works`, `✕ works (5 ms)`, node:test's `✖ works`)
 * named under the suites it is nested in, and node:test's suite header `▶ suite`.
 */
export const readTreeLine: LineReader = (extraction, { index, trimmed, indent }) => {
  if (/^[×✕✖✗] /.test(trimmed)) {
    extraction.popSuites(indent);
    const name = extraction.suitePath(withoutDuration(trimmed.slice(2).trim()));
    extraction.open(newDraft("test", name, extraction.fileContext));
    return index + 1;
  }
  if (trimmed.startsWith("▶ ")) {
    extraction.close();
    extraction.pushSuite(indent, withoutDuration(trimmed.slice(2).trim()));
    return index + 1;
  }
  return null;
};

/** A test title without the timing runners append: `works (5 ms)`, `works 12ms`, `works [1.2s]`. */
export function withoutDuration(title: string): string {
  return title
    .replace(/ (?:\(\d+(?:\.\d+)? ?m?s\)|\[\d+(?:\.\d+)? ?m?s\]|\d+(?:\.\d+)? ?m?s)$/, "")
    .trim();
}
