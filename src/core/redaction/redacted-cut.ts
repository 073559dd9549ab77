import { replaceSpans, secretSpans } from "./redaction.js";

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
