import { isTestPath, type SourceLocation } from "./stack-frames.js";

/** A user frame of a JavaScript stack, innermost first, as the helper rule reads it. */
export interface UserFrame {
  readonly location: SourceLocation;
  /** Whether the frame names its function (`at checkTotal (…)`), as a helper's does. */
  readonly named: boolean;
}

/**
 * Whether a frame line names its function: `at checkTotal (…)`, `at async Foo.bar (…)`,
 * `❯ checkTotal path:1:2`, ava's `› checkTotal (file://test.js:16:4)`. A bare `at path:1:2`,
 * `❯ path:1:2`, `› file://test.js:200:2` or an `<anonymous>` function is a test's callback or a
 * module's top level, not a helper.
 */
export function isNamedFrame(trimmed: string): boolean {
  if (trimmed.includes("<anonymous>")) return false;
  const marked = ["at ", "❯ ", "› "].some((mark) => trimmed.startsWith(mark));
  const rest = marked ? trimmed.slice(2).trim() : "";
  return rest.includes(" ") && !GENERATED_BODY.test(rest);
}

/**
 * The function Babel's regenerator names an async test's body (`at _callee9$ (test/a.test.js:181:72)`):
 * the test's own code, transpiled, not a helper it called.
 */
const GENERATED_BODY = /^(?:async )?_callee\d*\$ /;

/**
 * Where a failed assertion made in a shared helper shows in the test: the line of the test that
 * called the helper. The helper is the innermost user frame when it names its function and sits
 * in a test's file (`test/helpers.js`, a function of the spec file itself; Playwright prints its
 * location line, the same place, first); the caller is the next frame in a test's file outside
 * the helper's own file, or, for a helper of the spec file, the next frame in it. Null when the
 * assertion is in the test's own callback, or no caller is printed.
 */
export function helperCaller(frames: readonly UserFrame[]): SourceLocation | null {
  const [first, second] = frames;
  if (first === undefined) return null;
  const helper = first.named
    ? 0
    : second !== undefined && second.named && isSamePlace(first.location, second.location)
      ? 1
      : -1;
  const helperFrame = frames[helper];
  if (helperFrame === undefined || !isTestPath(helperFrame.location.file)) return null;
  const callers = frames.slice(helper + 1).filter((frame) => isTestPath(frame.location.file));
  // A helper in a file of its own may call itself on (`test()` → its `forEach` callback): the
  // test is the first frame outside that file. A helper of the spec file is called from it.
  const outside = callers.find((frame) => !isSameFile(frame.location, helperFrame.location));
  return (outside ?? callers[0])?.location ?? null;
}

/** One file, however each frame spells its path (`../support/a.ts`, `tests/support/a.ts`). */
function isSameFile(a: SourceLocation, b: SourceLocation): boolean {
  const base = (file: string): string => file.slice(file.lastIndexOf("/") + 1);
  return base(a.file) === base(b.file);
}

/** One line of one file, however each frame spells its path (`../support/a.ts`, `tests/support/a.ts`). */
function isSamePlace(a: SourceLocation, b: SourceLocation): boolean {
  return a.line === b.line && isSameFile(a, b);
}
