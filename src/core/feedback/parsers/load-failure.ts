import { truncateCodePoints } from "../clean/code-points.js";
import type { Failure } from "../feedback.js";
import { logLines } from "../clean/log-lines.js";
import { isSameFile, parseLocation } from "../extractor/stack-frames.js";

/** Longest message kept, as for every other failure field. */
const MAX_MESSAGE_LENGTH = 1000;

/** The first line of a thrown error: `SyntaxError: …`, `Error: …`, Mocha's `SyntaxError[ @file ]: …`. */
const ERROR_START = /^[\w$.]*(?:Error|Exception)\b[^:]{0,200}: \S/;

/** A code frame's marked line, as Babel and Jest print it: `> 5 |   expect(total([)).toBe(0);`. */
const CODE_FRAME_MARK = /^>\s*(\d+) \|/;

/** An error that only announces the errors listed below it: `Error: Transform failed with 1 error:`. */
const ANNOUNCES_ERRORS = /\b\d+ errors?:$/;

/**
 * The place a compiler's code frame names: oxc's and miette's `╭─[ src/a.ts:13:43 ]`, esbuild's
 * `src/a.ts:13:43: ERROR: …`.
 */
const COMPILER_PLACE = /^(?:╭─\[ ?(\S+:\d+:\d+) ?\]|(\S+:\d+:\d+): (?:ERROR|error): )/;

/**
 * A test file that failed to compile or load, as one failure (SPEC §4): named by the file, the
 * message the error's own first line (`SyntaxError: Unexpected token ')'`; the first error it
 * lists when it only announces them, `Transform failed with 1 error:`; else the report's first
 * line), the place a compiler's code frame names in another file (`╭─[ src/a.ts:13:43 ]`), else
 * the line where a code frame (`> 5 |`) or a location line naming the file points.
 */
export function loadFailure(file: string, report: string): Failure {
  const lines = logLines(report)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const at = lines.findIndex((line) => ERROR_START.test(line));
  const error = lines[at] ?? lines[0] ?? "";
  const listed = ANNOUNCES_ERRORS.test(error) ? lines[at + 1] : undefined;
  const message =
    listed !== undefined && ERROR_START.test(error) && !COMPILER_PLACE.test(listed)
      ? listed
      : error;
  const place = compilerPlace(lines);
  return {
    test: file,
    file: place?.file ?? file,
    line: place?.line ?? reportedLine(lines, file),
    expected: null,
    received: null,
    message: truncateCodePoints(message, MAX_MESSAGE_LENGTH),
  };
}

/** The first place a compiler's code frame names, or null. */
function compilerPlace(lines: readonly string[]): { file: string; line: number } | null {
  for (const line of lines) {
    const named = COMPILER_PLACE.exec(line);
    const place = named === null ? null : parseLocation(named[1] ?? named[2] ?? "");
    if (place !== null) return place;
  }
  return null;
}

/**
 * The failure of a file a runner names as failed without saying why (node:test's `test failed`,
 * node-tap's bare `not ok 1 - test/a.test.js`), from the error Node printed for it elsewhere in
 * the output (as TAP comments in node:test's TAP): its banner `file:///path:7`, the source line,
 * then `SyntaxError: …`. The failure as it was when Node printed nothing for the file.
 */
export function fileLoadFailure(failure: Failure, output: string): Failure {
  const file = failure.test ?? "";
  const at = output.indexOf(`${file}:`);
  if (at < 0) return { ...failure, file };
  const start = output.lastIndexOf("\n", at) + 1;
  const block = logLines(output.slice(start, start + 4000)).map((line) =>
    line.startsWith("# ") ? line.slice(2) : line,
  );
  const found = loadFailure(file, block.join("\n"));
  return found.message === "" ? { ...found, message: failure.message } : found;
}

/** Where the error points: a code frame's marked line, else a `path:line` naming the file. */
function reportedLine(lines: readonly string[], file: string): number | null {
  for (const line of lines) {
    const marked = CODE_FRAME_MARK.exec(line);
    if (marked?.[1] !== undefined) return Number(marked[1]);
  }
  for (const line of lines) {
    const location = line.includes(" ") ? null : parseLocation(line);
    if (location !== null && isSameFile(location.file, file)) return location.line;
  }
  return null;
}
