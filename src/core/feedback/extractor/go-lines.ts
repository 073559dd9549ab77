import type { Extraction, LineReader } from "./extraction.js";
import { newDraft } from "./failure-draft.js";

/**
 * go test's `=== RUN`/`=== CONT` (output lines from there on belong to that test until it
 * reports) and `--- FAIL: name` (the test failed; a `--- PASS`/`--- SKIP` drops what it printed).
 */
export const readGoLine: LineReader = (extraction, { index, trimmed }) => {
  const event = /^=== (RUN|CONT|NAME|PAUSE)\s+(\S+)$/.exec(trimmed);
  if (event?.[2] !== undefined) {
    extraction.close();
    if (event[1] !== "PAUSE") resumeRun(extraction, event[2]);
    return index + 1;
  }
  const result = /^--- (FAIL|PASS|SKIP): (\S+)/.exec(trimmed);
  if (result?.[2] === undefined) return null;
  extraction.close();
  const draft = extraction.pending.get(result[2]) ?? newDraft("test", result[2], null);
  extraction.pending.delete(result[2]);
  draft.provisional = false;
  if (result[1] === "FAIL") extraction.open(draft);
  return index + 1;
};

/** Makes the test `name` the one being read, opening a provisional draft the first time. */
function resumeRun(extraction: Extraction, name: string): void {
  let draft = extraction.pending.get(name);
  if (draft === undefined) {
    draft = newDraft("test", name, null);
    draft.provisional = true;
    extraction.pending.set(name, draft);
  }
  extraction.open(draft);
}
