import { isQuote } from "./quotes.js";
import type { Detector, SecretSpan } from "./secret-span.js";

/** Longest private key block: a block whose END is further away is redacted as cut off. */
export const MAX_PRIVATE_KEY_LENGTH = 32 * 1024;
/** Longest label between `BEGIN ` and the closing dashes. */
const MAX_LABEL = 64;
/** Labels of secret blocks: `RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`, `PGP PRIVATE KEY BLOCK`. */
const PRIVATE_LABEL = /^[\dA-Z ]*PRIVATE KEY(?: BLOCK)?$/;
/** Armor headers PEM and PGP put before a block's base64 (`Proc-Type: 4,ENCRYPTED`). */
const HEADER = /^(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset): /;

/** The dashes that open and close armor lines: `-----` (PEM, PGP) or `---- ` (SSH2). */
function dashesBefore(text: string, at: number): number {
  if (text.startsWith("-----", at - 5)) return 5;
  return text.startsWith("---- ", at - 5) ? 5 : 0;
}

/**
 * Where the label before a line's closing dashes ends and the dashes do, within `MAX_LABEL`
 * characters of `from`. The search stops at the next `----` at the latest, which every armor
 * line starts with, so the text between two BEGIN lines is searched once.
 */
function closingDashesEnd(text: string, from: number): { labelEnd: number; end: number } | null {
  const dashes = text.indexOf("----", from);
  if (dashes < 0 || dashes > from + MAX_LABEL + 1) return null;
  const labelEnd = text[dashes - 1] === " " && dashes > from ? dashes - 1 : dashes;
  return { labelEnd, end: dashes + (text[dashes + 4] === "-" ? 5 : 4) };
}

const isBase64 = (char: string): boolean => /^[\d+/=A-Z]$/i.test(char);

/** The line break at `at`: a newline, or `\n` / `\r` as a JSON string writes it; 0 if none. */
function lineBreak(text: string, at: number): number {
  if (text[at] === "\n") return 1;
  return text[at] === "\\" && (text[at + 1] === "n" || text[at + 1] === "r") ? 2 : 0;
}

/**
 * Where the body lines after `start` (base64, armor headers, blank) end, within `limit`: a line
 * holding anything else is not the key's. Each character is read once.
 */
function bodyEnd(text: string, start: number, limit: number): number {
  let end = start;
  let content = 0;
  let trailing = false;
  for (let at = start; at < limit;) {
    const char = text[at] ?? "";
    const newline = lineBreak(text, at);
    if (newline > 0) {
      if (content > 0) end = at;
      content = 0;
      trailing = false;
      at += newline;
    } else if (char === " " || char === "\t" || char === "\r") {
      trailing = content > 0;
      at += 1;
    } else if (content === 0 && HEADER.test(text.slice(at, at + 12))) {
      while (at < limit && text[at] !== "\n") at += 1;
      end = at;
    } else if (isBase64(char) && !trailing) {
      content += 1;
      at += 1;
      if (at === limit) end = at;
    } else {
      // A key cut off inside a quoted string ends at the quote; any other line is not the key's.
      return isQuote(char) && content > 0 && !trailing ? at : end;
    }
  }
  return end;
}

/**
 * Private key blocks of any type (PEM, OpenSSH, PGP, SSH2), also inside JSON strings where
 * their line breaks are `\n`: from the BEGIN line through the END line found within
 * `MAX_PRIVATE_KEY_LENGTH`. A block without one (a log cut mid-key) is redacted through its
 * base64 lines. Found with `indexOf`, and the END search only moves forward, so a log full of
 * BEGIN lines without an END is read once, not once per BEGIN.
 */
export const privateKeys: Detector = (text) => {
  const spans: SecretSpan[] = [];
  let nextEnd = -1;
  const endAfter = (from: number): number => {
    while (nextEnd < from || (nextEnd < text.length && dashesBefore(text, nextEnd) === 0)) {
      const found = text.indexOf("END ", Math.max(from, nextEnd + 1));
      nextEnd = found < 0 ? text.length : found;
    }
    return nextEnd;
  };
  for (let cursor = 0; ;) {
    const begin = text.indexOf("BEGIN ", cursor);
    if (begin < 0) break;
    cursor = begin + 6;
    const dashes = dashesBefore(text, begin);
    const header = dashes === 0 ? null : closingDashesEnd(text, cursor);
    if (header === null || !PRIVATE_LABEL.test(text.slice(cursor, header.labelEnd))) continue;
    const limit = Math.min(text.length, header.end + MAX_PRIVATE_KEY_LENGTH);
    const end = endAfter(header.end);
    const footer = end < limit ? closingDashesEnd(text, end + 4) : null;
    const blockEnd = footer?.end ?? bodyEnd(text, header.end, limit);
    spans.push({ start: begin - dashes, end: blockEnd, kind: "private_key" });
    cursor = Math.max(cursor, blockEnd);
  }
  return spans;
};
