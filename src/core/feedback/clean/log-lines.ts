import { stripAnsi } from "./ansi.js";
import { toWellFormed } from "./code-points.js";

/** Longest line the extractor reads; anything beyond is a data dump, not a fact a person reads. */
export const MAX_LINE_LENGTH = 4000;

/**
 * Test output as the lines a person would read: ANSI and controls stripped, lone surrogates
 * replaced, trailing blanks dropped, and every line cut to `MAX_LINE_LENGTH` so that no later
 * pattern ever sees a 10 MB line.
 */
export function logLines(output: string): string[] {
  return toWellFormed(stripAnsi(output))
    .split("\n")
    .map((line) => cutLine(line).trimEnd());
}

/** `line` cut to `MAX_LINE_LENGTH` code units without leaving half a surrogate pair. */
export function cutLine(line: string): string {
  if (line.length <= MAX_LINE_LENGTH) return line;
  const last = line.charCodeAt(MAX_LINE_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_LINE_LENGTH - 1 : MAX_LINE_LENGTH;
  return line.slice(0, end);
}
