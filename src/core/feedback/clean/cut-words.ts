import { codePointLength, truncateCodePoints } from "./code-points.js";

/** How far back from a cut a word's end is looked for, so a cut does not split a word. */
const WORD_REACH = 12;

/**
 * `words` cut to `length` code points, at the end of a word when one ends shortly before: a
 * cut that falls just after a word (a blank follows it in `words`) keeps that word whole.
 */
export function cutWords(words: string, length: number): string {
  const cut = truncateCodePoints(words, length);
  const kept = cut.slice(0, -1);
  if (/^\s/.test(words.slice(kept.length))) return cut;
  const space = kept.lastIndexOf(" ");
  return space >= 0 && codePointLength(kept) - codePointLength(kept.slice(0, space)) <= WORD_REACH
    ? `${kept.slice(0, space)}…`
    : cut;
}
