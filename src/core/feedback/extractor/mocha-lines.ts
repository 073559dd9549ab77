import { errorLine } from "./error-line.js";
import type { LineReader } from "./extraction.js";
import { newDraft } from "./failure-draft.js";
import { indentOf, MAX_VALUE_LINES } from "./line-blocks.js";

/** Whether `raw` goes on with a title: a line indented deeper than `indent` that is no error. */
function isDeeperTitle(raw: string | undefined, indent: number): boolean {
  const line = raw?.trim() ?? "";
  return line !== "" && indentOf(raw ?? "") > indent && errorLine(line) === null;
}

/**
 * Mocha's `1) suite` whose detailed form continues on deeper lines until one ends with `:`
 * (`1) login` / `returns token:`); without that it is the progress tree's line.
 */
export const readMochaTitle: LineReader = (extraction, { index, trimmed, indent }) => {
  const title = /^\d+\) (\S.*)$/.exec(trimmed);
  if (title?.[1] === undefined) return null;
  const { lines } = extraction;
  const parts = [title[1]];
  for (
    let cursor = index + 1;
    cursor < lines.length && cursor <= index + MAX_VALUE_LINES;
    cursor += 1
  ) {
    const raw = lines[cursor] ?? "";
    const line = raw.trim();
    if (line === "" || indentOf(raw) <= indent || errorLine(line) !== null) break;
    // A suite's own title may end with a colon (`describe('matching:')`): the test's title is
    // the last of the deeper lines, the one no deeper title line follows.
    if (line.endsWith(":") && !isDeeperTitle(lines[cursor + 1], indentOf(raw))) {
      parts.push(line.slice(0, -1));
      extraction.open(newDraft("test", parts.join(" > "), extraction.fileContext));
      return cursor + 1;
    }
    parts.push(line);
  }
  // A detailed title on one line (`1) file.js suite test:`, node-tap's spec reporter) ends
  // with the colon too.
  const name = title[1].endsWith(":") ? title[1].slice(0, -1) : title[1];
  extraction.open(newDraft("test", name, extraction.fileContext));
  return index + 1;
};
