/**
 * The line `text.slice(start, end)` without trailing blanks, copied out of `text` only now: lines
 * travel as ranges of the chunk they came in, and most are never copied at all.
 */
export function lineIn(text: string, start: number, end: number): string {
  const last = text.charCodeAt(end - 1);
  // Most lines end with a printable ASCII character, and have no trailing blank to look for.
  if (end > start && last > 0x20 && last < 0x80) return text.slice(start, end);
  return text.slice(start, end).trimEnd();
}
