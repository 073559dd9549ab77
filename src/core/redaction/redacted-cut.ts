import { redactionMarker, replaceSpans, secretSpans } from "./redaction.js";

/** The redacted part of a text on one side of a cut, and where the cut fell in the text. */
export interface RedactedPart {
  readonly text: string;
  /** The cut, in code units of the text: moved off any secret it would have split. */
  readonly cut: number;
}

/**
 * `text[0, cut)` redacted, the cut moved to the end of a secret it falls inside: the head of a
 * text cut in two never ends with part of a secret. `text` should reach past `cut` by the
 * longest secret's length, so that a secret across the cut is seen whole.
 */
export function redactedHead(text: string, cut: number): RedactedPart {
  const spans = secretSpans(text);
  const across = spans.find((span) => span.start < cut && cut < span.end);
  const end = across?.end ?? cut;
  return { text: replaceSpans(text, spans, 0, end), cut: end };
}

/**
 * `text[cut, …)` redacted, the cut moved to the start of a secret it falls inside: the tail of
 * a text cut in two never starts with part of a secret. `text` should start before `cut` by
 * the longest secret's length.
 */
export function redactedTail(text: string, cut: number): RedactedPart {
  const spans = secretSpans(text);
  const across = spans.find((span) => span.start < cut && cut < span.end);
  const start = across?.start ?? cut;
  return { text: replaceSpans(text, spans, start), cut: start };
}

/**
 * `text` redacted and cut to at most `maxLength` code units, only where no secret is split: a
 * secret that would not fit whole, marker and all, is left out with everything after it. A
 * cut never leaves half a surrogate pair.
 */
export function redactedPrefix(text: string, maxLength: number): string {
  let result = "";
  let cursor = 0;
  for (const span of [...secretSpans(text), { start: text.length, end: text.length, kind: "" }]) {
    const plain = text.slice(cursor, span.start);
    if (result.length + plain.length > maxLength)
      return result + cutAt(plain, maxLength - result.length);
    result += plain;
    const marker = span.kind === "" ? "" : redactionMarker(span.kind);
    if (result.length + marker.length > maxLength) return result;
    result += marker;
    cursor = span.end;
  }
  return result;
}

/** The first `length` code units of `text`, one fewer if that would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}
