import { bearerTokens } from "./bearer-tokens.js";
import { commandLinePasswords } from "./command-line-passwords.js";
import { credentialUrls } from "./credential-urls.js";
import { keyedValues } from "./keyed-values.js";
import { prefixedTokens } from "./prefixed-tokens.js";
import { privateKeys } from "./private-keys.js";
import type { Detector, SecretSpan } from "./secret-span.js";

/**
 * Every family of secrets loopgate recognises. All read the same text; where their spans
 * overlap (`Authorization: Bearer eyJ…` is a header, a bearer token and a JWT) the union is
 * redacted once, named by the span that starts first, or by the earlier family on a tie.
 */
const DETECTORS: readonly Detector[] = [
  privateKeys,
  prefixedTokens,
  credentialUrls,
  keyedValues,
  bearerTokens,
  commandLinePasswords,
];

/** The marker that stands for a redacted secret. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** Where `text` holds secrets: sorted, none overlapping, each named by its kind. */
export function secretSpans(text: string): SecretSpan[] {
  const found = DETECTORS.flatMap((detect) => detect(text));
  // The sort is stable: spans starting together stay in the order of their families. Spans of
  // one family alone, in order already, need none.
  if (found.some((span, index) => index > 0 && span.start < (found[index - 1]?.start ?? 0))) {
    found.sort((a, b) => a.start - b.start);
  }
  const merged: SecretSpan[] = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last === undefined || span.start >= last.end) merged.push(span);
    else if (span.end > last.end) merged[merged.length - 1] = { ...last, end: span.end };
  }
  return merged;
}

/** `text[from, to)` with the `spans` inside it replaced by their markers. */
export function replaceSpans(
  text: string,
  spans: readonly SecretSpan[],
  from = 0,
  to = text.length,
): string {
  // Pieces joined once: a million `+=` would build a rope a million levels deep.
  const pieces: string[] = [];
  let cursor = from;
  for (const span of spans) {
    if (span.start < from || span.end > to) continue;
    pieces.push(text.slice(cursor, span.start), redactionMarker(span.kind));
    cursor = span.end;
  }
  pieces.push(text.slice(cursor, to));
  return pieces.join("");
}

/**
 * `text` with every secret loopgate recognises replaced by `[REDACTED:kind]` (SPEC §4, the
 * rules in docs/feedback.md): provider-prefixed tokens, JWTs, private key blocks, credentials
 * in URLs and on command lines, bearer tokens, and the values of keys whose name says secret.
 * Errs toward redacting: a false positive costs a few characters of feedback, a miss leaks a
 * secret into a prompt or a journal. Linear in the text; redacting twice changes nothing.
 */
export function redact(text: string): string {
  return replaceSpans(text, secretSpans(text));
}
