/** Shannon entropy of `text` in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/**
 * Whether a value without digits reads as words (`TestLabel/single_unit`): its letter runs,
 * split at case changes too, average four letters or more. Random letters change case every
 * character or two.
 */
function isWords(value: string): boolean {
  const parts = value.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).filter((part) => part !== "");
  const letters = parts.reduce((sum, part) => sum + part.length, 0);
  return parts.length > 0 && letters / parts.length >= 4;
}

/** Control characters mean a terminal's colours (`key=\x1b[94mlambda`), not a key. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f]/;

/**
 * Code's brackets and separators inside a value (`(++cov_1a2b.s[3`): no generated key, hash,
 * base64 or UUID has them. Brackets at its ends are what it is written in (`(KEY)`, `[KEY[`).
 */
const CODE = /^[([{]*[^()[\]{};,]+[()[\]{};,]+[^()[\]{};,]/;

/** Longest value judged: a longer one is a dump, not a key, and judging it costs its length. */
const MAX_JUDGED = 512;

/**
 * Whether a value looks generated rather than written: at least 12 characters without spaces,
 * letters mixed with digits (or both cases over 20 characters, not words), 3 bits of entropy per
 * character, and not a path, a URL or code. Words, identifiers, dates and paths do not; keys, hashes,
 * base64 and UUIDs do.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 12 || value.length > MAX_JUDGED) return false;
  if (
    /\s/.test(value) ||
    CONTROL.test(value) ||
    CODE.test(value) ||
    value.includes("://") ||
    /^(?:[.~]?\/|[a-z]:\\)/i.test(value)
  ) {
    return false;
  }
  const digits = /\d/.test(value);
  const upper = /[A-Z]/.test(value);
  const lower = /[a-z]/.test(value);
  const mixed =
    (digits && (upper || lower)) || (upper && lower && value.length >= 20 && !isWords(value));
  return mixed && entropy(value) >= 3;
}
