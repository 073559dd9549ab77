import type { Failure } from "../feedback.js";
import { isClosingLine, isPassLine } from "./log-noise.js";
import { parseLocation } from "./stack-frames.js";

/** How many lines stand in for failures the extractor could not structure. */
const MAX_FALLBACK_LINES = 5;

/** Words that mark a line as saying what went wrong. */
const INFORMATIVE = /error|fail|assert|expected|received|panic|exception|traceback/i;

/**
 * The most informative lines of output that no known format matched: lines naming an error,
 * a failure, an assertion or a panic (banners and pass lines excluded), else the last line —
 * logs end with what stopped them. Each becomes a failure whose message is the line.
 */
export function fallbackFailures(lines: readonly string[]): Failure[] {
  const candidates = lines.map((line) => line.trim()).filter((line) => line !== "");
  const informative = candidates.filter(
    (line) => INFORMATIVE.test(line) && !isClosingLine(line) && !isPassLine(line),
  );
  const last = candidates.at(-1);
  const chosen = informative.length > 0 ? informative : last === undefined ? [] : [last];
  return [...new Set(chosen)].slice(0, MAX_FALLBACK_LINES).map(lineFailure);
}

/** A failure that is only a line of output, located when the line starts with `path:line`. */
function lineFailure(line: string): Failure {
  const head = /^[^\s:]+:\d+(?::\d+)?/.exec(line)?.[0];
  const location = head === undefined ? null : parseLocation(head);
  return {
    test: null,
    file: location?.file ?? null,
    line: location?.line ?? null,
    expected: null,
    received: null,
    message: line,
  };
}
