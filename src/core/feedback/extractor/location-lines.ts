import { MAX_FRAMES, setLocation, setMessage } from "./failure-draft.js";
import { isNamedFrame } from "./helper-frames.js";
import type { LineReader } from "./extraction.js";
import { frameLocation, isInternalPath } from "./stack-frames.js";

/**
 * A stack frame: the first in user code says where the failure being read happened; the last of
 * a JavaScript stack (V8's and Vitest's list the innermost call first) is the test's own code.
 */
export const readFrame: LineReader = (extraction, { index, trimmed }) => {
  const frame = frameLocation(trimmed);
  if (frame === null) return null;
  const { current } = extraction;
  if (current !== null && !isInternalPath(frame.file)) {
    setLocation(current, frame);
    if (isJavaScriptFrame(frame.file)) {
      current.outermost = frame;
      current.outermostIsCallback = isCallbackFrame(trimmed);
      if (current.frames.length < MAX_FRAMES)
        current.frames.push({ location: frame, named: isNamedFrame(trimmed) });
    }
  }
  return index + 1;
};

/**
 * A runner's location line, `path:line:` with the error after it (`tests/a.py:13: AssertionError`)
 * or alone under a failure being read.
 */
export const readLocationLine: LineReader = (extraction, { index, trimmed }) => {
  const located = /^([^\s:]+):(\d+):(?:\d+:)?(?:\s+(\S.*))?$/.exec(trimmed);
  if (located?.[1] === undefined || !located[1].includes(".") || isInternalPath(located[1]))
    return null;
  // pytest's short traceback names the function (`path:13: in test_x`), not the error.
  const rest = (located[3] ?? "").startsWith("in ") ? "" : (located[3] ?? "");
  if (rest === "" && extraction.current === null) return index + 1;
  const draft = extraction.draft();
  setLocation(draft, { file: located[1], line: Number(located[2]) });
  setMessage(draft, rest);
  return index + 1;
};

/** Whether a frame is in a JavaScript or TypeScript file, whose stacks list the innermost call first. */
function isJavaScriptFrame(file: string): boolean {
  return /\.(?:[cm]?[jt]sx?|vue|svelte)$/.test(file);
}

/**
 * Whether a frame is an anonymous function's: `at Context.<anonymous> (…)`, a bare `at path`
 * or Vitest's `❯ path` — the callback a test was declared with. `Object.<anonymous>` is a
 * CommonJS module's top level, where tests are declared, not run.
 */
function isCallbackFrame(trimmed: string): boolean {
  if (trimmed.includes("Object.<anonymous>")) return false;
  return trimmed.includes("<anonymous>") || !trimmed.slice(2).trim().includes(" ");
}
