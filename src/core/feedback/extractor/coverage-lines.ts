import type { LineReader } from "./extraction.js";
import { newDraft, setLocation, setMessage } from "./failure-draft.js";

/**
 * A coverage tool failing the run: c8's, nyc's and istanbul's `ERROR: Coverage for lines
 * (99.69%) does not meet global threshold (100%)`, Jest's `Jest: "global" coverage threshold for
 * lines (80%) not met: 79.5%`.
 */
const THRESHOLD =
  /^(?:ERROR: (Coverage for \w+ \([\d.]+%\) does not meet (?:global )?threshold \([\d.]+%\))|(Jest: "[^"]+" coverage threshold for \w+ \([\d.]+%\) not met: [\d.]+%))$/;

/** A row of istanbul's text table with uncovered lines: ` plugin.js |  99.53 | … | 26,40-42`. */
const UNCOVERED_ROW = /^([^\s|]+\.\w+) *\|(?: *[\d.]+ *\|){4} *(\d+)/;

/** How far above a threshold line its table is looked for. */
const TABLE_LINES = 400;

/**
 * A coverage threshold the run missed, as one failure however many measures missed it (they
 * share one cause: lines nobody tests), placed at the first uncovered line the table above it
 * lists. It names no test.
 */
export const readCoverageThreshold: LineReader = (extraction, { index, trimmed }) => {
  const threshold = THRESHOLD.exec(trimmed);
  if (threshold === null) return null;
  if (extraction.coverageMissed) return index + 1;
  extraction.coverageMissed = true;
  const draft = extraction.open(newDraft("file", null, null));
  setMessage(draft, threshold[1] ?? threshold[2] ?? trimmed);
  for (let cursor = Math.max(0, index - TABLE_LINES); cursor < index; cursor += 1) {
    const row = UNCOVERED_ROW.exec((extraction.lines[cursor] ?? "").trim());
    if (row?.[1] !== undefined && row[1] !== "files") {
      setLocation(draft, { file: row[1], line: Number(row[2]) });
      break;
    }
  }
  extraction.close();
  return index + 1;
};
