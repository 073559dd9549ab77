import type { LineReader } from "./extraction.js";
import { newDraft } from "./failure-draft.js";

/**
 * A progress tree's lines: a failed test (`× works`, `✕ works (5 ms)`, node:test's `✖ works`)
 * named under the suites it is nested in, and node:test's suite header `▶ suite`.
 */
export const readTreeLine: LineReader = (extraction, { index, trimmed, indent }) => {
  if (/^[×✕✖✗] /.test(trimmed)) {
    extraction.popSuites(indent);
    // node:test marks a todo or skipped test after its time: `✖ name (1.2ms) # TODO`, or the
    // todo's reason in place of TODO. It fails without failing the run.
    if (DIRECTIVE.test(trimmed)) {
      extraction.ignore();
      return index + 1;
    }
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

/** node:test's directive after a test's time: `(1.2ms) # TODO`, `(0.3ms) # later`. */
const DIRECTIVE = / \(\d+(?:\.\d+)?m?s\) # \S/;

/** A test title without the timing runners append: `works (5 ms)`, `works 12ms`, `works [1.2s]`. */
export function withoutDuration(title: string): string {
  return title
    .replace(/ (?:\(\d+(?:\.\d+)? ?m?s\)|\[\d+(?:\.\d+)? ?m?s\]|\d+(?:\.\d+)? ?m?s)$/, "")
    .trim();
}
