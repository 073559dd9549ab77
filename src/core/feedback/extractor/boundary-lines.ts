import { isDiffHeader } from "./diff-lines.js";
import type { LineReader } from "./extraction.js";
import { isClosingLine, isConsoleHeader, isPassLine } from "./log-noise.js";

/**
 * Lines that end the failure being read without starting another: run summaries and banners,
 * passing tests (which also leave their suites; `PASS file` leaves its file), and console
 * captures (muted until the next report). A diff header that looks like a rule (`--- expected`)
 * is a detail.
 */
export const readBoundary: LineReader = (extraction, { index, trimmed, indent }) => {
  if (isDiffHeader(trimmed)) return null;
  if (isClosingLine(trimmed)) {
    extraction.close();
    return index + 1;
  }
  if (isPassLine(trimmed)) {
    extraction.close();
    extraction.popSuites(indent);
    if (trimmed.startsWith("PASS")) extraction.fileContext = null;
    return index + 1;
  }
  if (isConsoleHeader(trimmed)) {
    extraction.close();
    extraction.muted = true;
    return index + 1;
  }
  return null;
};
