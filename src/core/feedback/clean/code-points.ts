/** The marker that shows text was cut; it is one code point and counts toward every cap. */
export const ELLIPSIS = "…";

/** Length in Unicode code points, the unit the feedback cap is measured in (SPEC §3, Python `len`). */
export function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    length += 1;
  }
  return length;
}

/** The first `count` code points of `text`, never ending inside a surrogate pair. */
export function takeCodePoints(text: string, count: number): string {
  if (count <= 0) return "";
  let taken = 0;
  let index = 0;
  while (index < text.length && taken < count) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    index += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    taken += 1;
  }
  return text.slice(0, index);
}

/**
 * `text` cut to at most `maxLength` code points; a cut ends with `…`, which counts toward the
 * limit, so a limit of 1 leaves only the marker and a limit below 1 leaves nothing.
 */
export function truncateCodePoints(text: string, maxLength: number): string {
  if (maxLength <= 0) return "";
  if (codePointLength(text) <= maxLength) return text;
  // Trailing blanks before the marker would spend the budget on nothing.
  return takeCodePoints(text, maxLength - 1).trimEnd() + ELLIPSIS;
}

/** `text` with every lone surrogate replaced by U+FFFD, so cut output is always well-formed. */
export function toWellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
