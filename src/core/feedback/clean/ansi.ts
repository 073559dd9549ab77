/**
 * Escape sequences terminals interpret: CSI (`ESC [` or the 8-bit `\x9b`, parameters, final
 * byte), OSC (`ESC ]` up to BEL or `ESC \`, e.g. hyperlinks and titles), and the short
 * two- or three-byte forms (charset selection, keypad modes). Every quantifier runs over a class
 * that excludes the sequence's introducer, so an unterminated storm costs linear time.
 */
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[\x20-\x2f]*[\x30-\x7e]/g;

/** C0 controls other than tab, newline and carriage return (NUL, backspace, bell, a stray ESC …), DEL, and the C1 range. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\x00-\x08\v\f\x0e-\x1f\x7f-\x9f]/g;

/**
 * Plain text as a person would read it on a terminal: escape sequences and control characters
 * removed, CRLF read as a newline, and a line redrawn with `\r` (progress bars, spinners)
 * reduced to its last non-empty state.
 */
export function stripAnsi(text: string): string {
  // Controls go before redraws are read, so an invisible NUL after `\r` is no redraw.
  const visible = text
    .replace(/\r\n/g, "\n")
    .replace(ESCAPE_SEQUENCE, "")
    .replace(CONTROL_CHARACTER, "");
  return visible.includes("\r") ? visible.split("\n").map(lastDrawnState).join("\n") : visible;
}

/**
 * What a `\r`-redrawn line shows last: its last redraw that writes something visible. A
 * trailing `\r` (cursor reset, CRLF) leaves the text standing, and so does a redraw of blanks
 * only (a tab moves the cursor, it erases nothing). Scans backwards without splitting: the stream
 * reader calls it per line.
 */
export function lastDrawnState(line: string): string {
  let end = line.length;
  while (end > 0) {
    const start = line.lastIndexOf("\r", end - 1) + 1;
    const drawn = line.slice(start, end);
    if (drawn.trim() !== "") return drawn;
    end = start - 1;
  }
  return "";
}
