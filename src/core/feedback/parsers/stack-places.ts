import { helperCaller, isNamedFrame, type UserFrame } from "../extractor/helper-frames.js";
import {
  frameLocation,
  isInternalPath,
  isTestPath,
  type SourceLocation,
} from "../extractor/stack-frames.js";

/**
 * Where a printed stack says a failure happened: its first frame in user code — for a failed
 * `assertion` made in a shared helper, the test's line that called the helper (`helperCaller`)
 * — and, when the outermost user frame is in another file and a test's (an error thrown in the
 * code under test or a shared helper), that frame too, the test's own code.
 */
export function stackPlaces(
  lines: readonly string[],
  assertion = false,
): {
  location: SourceLocation | null;
  testLocation?: SourceLocation;
} {
  const frames: UserFrame[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    const frame = frameLocation(trimmed);
    if (frame === null || isInternalPath(frame.file)) continue;
    frames.push({ location: frame, named: isNamedFrame(trimmed) });
  }
  const first = (assertion ? helperCaller(frames) : null) ?? frames[0]?.location ?? null;
  const last = frames.at(-1)?.location ?? null;
  return last !== null && first !== null && last.file !== first.file && isTestPath(last.file)
    ? { location: first, testLocation: last }
    : { location: first };
}
