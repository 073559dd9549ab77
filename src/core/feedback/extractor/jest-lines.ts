import { isDiffHeader } from "./diff-lines.js";
import type { Extraction, LineReader } from "./extraction.js";
import { newDraft, setMessage, type DraftKind } from "./failure-draft.js";
import { firstLineBelow, REPORT_START } from "./line-blocks.js";
import { frameLocation } from "./stack-frames.js";
import { withoutDuration } from "./test-tree-lines.js";
import { withoutProjectSuffix } from "./project-suffix.js";
import { VALUE_KEY } from "./value-lines.js";

/**
 * Jest's and Vitest's headers: `FAIL file` (the file whose failures follow), Vitest's
 * `FAIL file > suite > test`, and Jest's `● suite › test` (or `● Test suite failed to run`)
 * with the error's own first line right under it.
 */
export const readJestHeader: LineReader = (extraction, { index, trimmed }) => {
  const header = /^FAIL\s+(\S.*)$/.exec(trimmed);
  if (header?.[1] !== undefined) {
    openFileHeader(extraction, header[1], index);
    return index + 1;
  }
  if (!trimmed.startsWith("● ")) return null;
  const name = trimmed.slice(2).trim();
  const suiteFailed = name === "Test suite failed to run";
  const kind: DraftKind = suiteFailed ? "file" : "test";
  const draft = extraction.open(newDraft(kind, suiteFailed ? null : name, extraction.fileContext));
  const first = firstLineBelow(extraction.lines, index, -1);
  if (isJestMessage(first)) setMessage(draft, withoutJasmineEcho(first));
  return index + 1;
};

/** A line of Jest's code frame: `90 |     const customFs = {`, `> 92 |   rmdir: …`. */
const CODE_FRAME_LINE = /^(?:> )?\d+ \|/;

/**
 * Jest 24–26's jasmine2 runner prints a timeout as `: Timeout - Async callback was not invoked
 * within the 5000ms timeout specified by jest.setTimeout.` twice and `Error:` after it: said once.
 */
function withoutJasmineEcho(line: string): string {
  const text = line.startsWith(": ") ? line.slice(2) : line;
  if (!text.endsWith("Error:")) return line;
  const body = text.slice(0, -"Error:".length);
  const half = body.slice(0, body.length / 2);
  return body.length % 2 === 0 && half !== "" && body === half + half ? half : line;
}

/**
 * A `FAIL file` or Vitest `FAIL file > suite > test` header at `index`. Vitest lists every test
 * that failed with one error as consecutive headers above it: a test header right under another
 * shares the report the last one reads.
 */
function openFileHeader(extraction: Extraction, rest: string, index: number): void {
  const [file = "", ...names] = withoutDuration(withoutProjectSuffix(rest)).split(" > ");
  if (names.length > 0) {
    if (isGroupedHeader(extraction.lines, index)) extraction.shareNext();
    extraction.open(newDraft("test", names.join(" > "), file));
    return;
  }
  extraction.fileContext = file;
  extraction.open(newDraft("file", null, file));
}

/**
 * Whether the header at `index` is listed right under another test's: the line above is one, or
 * is blank under one — a test's name that ends with a line break (cookie's `invalid domain:
 * example.com\n`) leaves a blank line between the headers, never the report's rule.
 */
function isGroupedHeader(lines: readonly string[], index: number): boolean {
  const above = lines[index - 1] ?? "";
  if (isTestHeader(above)) return true;
  return above.trim() === "" && isTestHeader(lines[index - 2] ?? "");
}

/** Whether `line` is a Vitest `FAIL file > … > test` header. */
function isTestHeader(line: string): boolean {
  return /^FAIL\s+\S+ > /.test(line.trim());
}

/**
 * Whether the line under a Jest `●` header is the error's own words rather than a value, diff,
 * frame or the code frame's first line (an `Error` thrown with no message prints none).
 */
function isJestMessage(line: string): boolean {
  return (
    line !== "" &&
    !CODE_FRAME_LINE.test(line) &&
    !isDiffHeader(line) &&
    !VALUE_KEY.test(line) &&
    frameLocation(line) === null &&
    !REPORT_START.test(line)
  );
}
