/** One start or end tag of an XML document, with its attributes decoded. */
export interface XmlTag {
  readonly name: string;
  readonly closing: boolean;
  /** `<name … />`: opened and closed at once. */
  readonly selfClosing: boolean;
  readonly attributes: ReadonlyMap<string, string>;
  /** Index just past the tag's `>`. */
  readonly end: number;
}

/**
 * The next tag at or after `from`, skipping comments, CDATA, declarations and processing
 * instructions; null at the end of the text. A hand-written scanner rather than a dependency
 * (the core imports nothing): every call moves forward with `indexOf`, so a document is read in
 * linear time however it is nested or malformed.
 */
export function nextTag(xml: string, from: number): XmlTag | null {
  let at = xml.indexOf("<", from);
  while (at >= 0) {
    const skipped = skipMarkup(xml, at);
    if (skipped === null) return readTag(xml, at);
    at = skipped < 0 ? -1 : xml.indexOf("<", skipped);
  }
  return null;
}

/** Markup that is not an element tag, as the index past it (-1 when unterminated), or null. */
function skipMarkup(xml: string, at: number): number | null {
  for (const [open, close] of SKIPPED) {
    if (xml.startsWith(open, at)) {
      const end = xml.indexOf(close, at + open.length);
      return end < 0 ? -1 : end + close.length;
    }
  }
  return null;
}

/** Comments, CDATA, declarations (`<!DOCTYPE`) and processing instructions (`<?xml`). */
const SKIPPED: readonly (readonly [string, string])[] = [
  ["<!--", "-->"],
  ["<![CDATA[", "]]>"],
  ["<!", ">"],
  ["<?", "?>"],
];

/** The tag starting at `at` (a `<` that opens an element or closes one). */
function readTag(xml: string, at: number): XmlTag | null {
  const closing = xml.charAt(at + 1) === "/";
  let cursor = at + (closing ? 2 : 1);
  const nameStart = cursor;
  while (cursor < xml.length && !isNameEnd(xml.charAt(cursor))) cursor += 1;
  const name = xml.slice(nameStart, cursor);
  const attributes = new Map<string, string>();
  while (cursor < xml.length) {
    const char = xml.charAt(cursor);
    if (char === ">") {
      const selfClosing = xml.charAt(cursor - 1) === "/";
      return { name, closing, selfClosing, attributes, end: cursor + 1 };
    }
    if (char === '"' || char === "'") {
      // A stray quote outside an attribute: skip to its partner so `>` inside is not the end.
      const close = xml.indexOf(char, cursor + 1);
      if (close < 0) return null;
      cursor = close + 1;
      continue;
    }
    if (isNameEnd(char)) {
      cursor += 1;
      continue;
    }
    cursor = readAttribute(xml, cursor, attributes);
    if (cursor < 0) return null;
  }
  return null;
}

/** Reads `key="value"` (or `key='value'`, or a bare `key`) at `at`; returns the index past it. */
function readAttribute(xml: string, at: number, into: Map<string, string>): number {
  let cursor = at;
  while (cursor < xml.length && !isNameEnd(xml.charAt(cursor)) && xml.charAt(cursor) !== "=") {
    cursor += 1;
  }
  const key = xml.slice(at, cursor);
  while (xml.charAt(cursor) === " " || xml.charAt(cursor) === "\t") cursor += 1;
  if (xml.charAt(cursor) !== "=") {
    into.set(key, "");
    return cursor;
  }
  cursor += 1;
  while (xml.charAt(cursor) === " " || xml.charAt(cursor) === "\t") cursor += 1;
  const quote = xml.charAt(cursor);
  if (quote !== '"' && quote !== "'") return cursor;
  const close = xml.indexOf(quote, cursor + 1);
  if (close < 0) return -1;
  into.set(key, decodeEntities(xml.slice(cursor + 1, close)));
  return close + 1;
}

/** Whether `char` ends a tag or attribute name. */
function isNameEnd(char: string): boolean {
  return (
    char === ">" || char === "/" || char === " " || char === "\t" || char === "\n" || char === "\r"
  );
}

/** The five predefined XML entities. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
};

/** Text with XML entities (`&lt;`, `&#10;`, `&#x1F600;`) decoded; unknown ones are kept. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[\da-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi, (whole, body: string) => {
    if (!body.startsWith("#")) return NAMED_ENTITIES[body] ?? whole;
    const code =
      body.startsWith("#x") || body.startsWith("#X")
        ? Number.parseInt(body.slice(2), 16)
        : Number(body.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The text between the end of a start tag at `from` and the matching `</name>`, entities
 * decoded and CDATA unwrapped, with the index past the end tag. Text up to the end of the
 * document when the end tag is missing.
 */
export function elementText(
  xml: string,
  name: string,
  from: number,
): { text: string; end: number } {
  const close = xml.indexOf(`</${name}`, from);
  const stop = close < 0 ? xml.length : close;
  const end = close < 0 ? xml.length : xml.indexOf(">", close) + 1 || xml.length;
  return { text: unwrapText(xml.slice(from, stop)), end };
}

/** Element text with CDATA sections taken verbatim and everything else entity-decoded. */
function unwrapText(raw: string): string {
  const parts: string[] = [];
  let cursor = 0;
  while (cursor < raw.length) {
    const open = raw.indexOf("<![CDATA[", cursor);
    if (open < 0) break;
    parts.push(decodeEntities(raw.slice(cursor, open)));
    const close = raw.indexOf("]]>", open + 9);
    parts.push(raw.slice(open + 9, close < 0 ? raw.length : close));
    cursor = close < 0 ? raw.length : close + 3;
  }
  parts.push(decodeEntities(raw.slice(cursor)));
  return parts.join("");
}
