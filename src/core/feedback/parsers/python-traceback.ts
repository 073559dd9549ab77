import { frameLocation, isInternalPath, type SourceLocation } from "../extractor/stack-frames.js";

/** A frame of a Python traceback: where, and in which function (`File "…", line 3, in name`). */
export interface PythonFrame extends SourceLocation {
  readonly function: string | null;
  /** The frame's source line as printed under it (`self.assertEqual(2, x)`), null when none is. */
  readonly source: string | null;
}

/** What a Python traceback says: where user code was running and the exception it ended with. */
export interface PythonTraceback {
  /** Frames in user code, outermost first; the last is where it broke. */
  readonly frames: readonly PythonFrame[];
  /** The final exception as printed, its common indent removed: `ValueError: bad` and any lines after it. */
  readonly exception: readonly string[];
}

/** The header of every traceback, a chained one's included. */
const TRACEBACK_HEADER = "Traceback (most recent call last):";

/** The line between two chained tracebacks (Python's and pytest's alike), which belongs to neither exception. */
export const CHAIN_MARKER =
  /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;

/**
 * Whether a Python frame's file is the user's code: not the standard library or site-packages
 * (`isInternalPath`), nor a `<doctest README.rst[15]>` or `<string>` pseudo-file, which no one
 * can open.
 */
export function isUserPythonFile(file: string): boolean {
  return !isInternalPath(file) && !file.startsWith("<");
}

/**
 * Reads Python's own traceback format from `lines` (a unittest report, a doctest's `Exception
 * raised:` block): the user frames of the last traceback (frames in the standard library,
 * site-packages and `<doctest …>`/`<string>` pseudo-files skipped) and the exception that ended
 * it. A chained exception's last traceback is the one that failed the test.
 */
export function readTraceback(lines: readonly string[]): PythonTraceback {
  let frames: PythonFrame[] = [];
  let exception: string[] = [];
  let headerIndent = -1;
  let inFrames = false;
  // The user frame whose source line, the first under it, has not been read yet.
  let awaiting: { -readonly [K in keyof PythonFrame]: PythonFrame[K] } | null = null;
  for (const line of lines) {
    const trimmed = line.trim();
    const indent = line.length - line.trimStart().length;
    if (trimmed === TRACEBACK_HEADER) {
      frames = [];
      exception = [];
      headerIndent = indent;
      inFrames = true;
      continue;
    }
    const frame = trimmed.startsWith('File "') ? frameLocation(trimmed) : null;
    if (frame !== null && inFrames) {
      awaiting = null;
      if (isUserPythonFile(frame.file)) {
        awaiting = { ...frame, function: /, in (\S+)$/.exec(trimmed)?.[1] ?? null, source: null };
        frames.push(awaiting);
      }
      continue;
    }
    // Under a frame, its source line and carets are indented deeper than the header.
    if (inFrames && (trimmed === "" || indent > headerIndent)) {
      if (awaiting !== null && trimmed !== "") awaiting.source = trimmed;
      awaiting = null;
      continue;
    }
    if (CHAIN_MARKER.test(trimmed)) {
      inFrames = false;
      continue;
    }
    inFrames = false;
    if (headerIndent >= 0 && (exception.length > 0 || trimmed !== "")) {
      exception.push(line.slice(Math.min(indent, headerIndent)));
    }
  }
  while (exception.length > 0 && (exception.at(-1) ?? "").trim() === "") exception.pop();
  return { frames, exception };
}

/**
 * A bare `AssertionError` (an `assert` statement pytest did not rewrite, or any under unittest)
 * said by the statement it failed: ``AssertionError at `assert str(binding) == 'a.b'` ``, as
 * code, since its sides are expressions, not values. Any other message as it is.
 */
export function bareAssertionMessage(message: string, source: string): string {
  return message === "AssertionError" && /^assert\s/.test(source)
    ? `AssertionError at \`${source}\``
    : message;
}
