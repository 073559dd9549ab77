import {
  frameLocation,
  isInternalPath,
  isTestPath,
  type SourceLocation,
} from "../extractor/stack-frames.js";

/**
 * Where a printed stack says a failure happened: its first frame in user code, and — when the
 * outermost user frame is in another file and a test's (an error thrown in the code under test
 * or a shared helper) — that frame too, the test's own code.
 */
export function stackPlaces(lines: readonly string[]): {
  location: SourceLocation | null;
  testLocation?: SourceLocation;
} {
  let first: SourceLocation | null = null;
  let last: SourceLocation | null = null;
  for (const line of lines) {
    const frame = frameLocation(line.trim());
    if (frame === null || isInternalPath(frame.file)) continue;
    first ??= frame;
    last = frame;
  }
  return last !== null && first !== null && last.file !== first.file && isTestPath(last.file)
    ? { location: first, testLocation: last }
    : { location: first };
}
