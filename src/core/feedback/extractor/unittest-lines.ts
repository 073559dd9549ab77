import type { LineReader } from "./extraction.js";
import { newDraft } from "./failure-draft.js";

/** unittest's `FAIL: test_x (module.Class.test_x)` and `ERROR: …` headers. */
export const readUnittestHeader: LineReader = (extraction, { index, trimmed }) => {
  const header = /^(?:FAIL|ERROR): (\S.*)$/.exec(trimmed);
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
