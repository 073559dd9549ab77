import type { LineReader } from "./extraction.js";
import { newDraft } from "./failure-draft.js";

/**
 * unittest's `FAIL: test_x (module.Class.test_x)` and `ERROR: …` headers: a test's name alone or
 * followed by its dotted path. Words after `ERROR: ` are another tool's error (c8's `ERROR:
 * Coverage for lines (99.69%) does not meet global threshold (100%)`), not a test.
 */
export const readUnittestHeader: LineReader = (extraction, { index, trimmed }) => {
  const header = /^(?:FAIL|ERROR): (\S+(?: \([\w.]+\).*)?)$/.exec(trimmed);
  if (header?.[1] === undefined) return null;
  extraction.open(newDraft("test", unittestName(header[1]), null));
  return index + 1;
};

/** unittest's `test_x (module.Class.test_x)` (or the older `test_x (module.Class)`) as a dotted name. */
function unittestName(title: string): string {
  const match = /^(\S+) \(([\w.]+)\)/.exec(title);
  if (match?.[1] === undefined || match[2] === undefined) return title;
  return match[2].endsWith(`.${match[1]}`) ? match[2] : `${match[2]}.${match[1]}`;
}
