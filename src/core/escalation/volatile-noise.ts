/** ISO-8601 timestamps, which differ on every run. */
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
/** Durations such as `12ms`, `(5.2 s)` or `3 min`, which differ on every run. */
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ms|secs?|seconds?|min|minutes?|[hms])\b/g;
/** Per-run scratch directories: `/tmp/jest_x1`, macOS `/var/folders/ab/cd/T/x1`, Windows `\Temp\x1`. */
const TEMP_DIRECTORY =
  /(?:(?:\/private)?\/var\/folders\/[^\s/]+\/[^\s/]+\/T|\/tmp|\\Temp)[/\\][^\s/\\:'"]+/g;
/** UUIDs, which name per-run objects. */
const UUID = /\b[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}\b/gi;
/** `0x`-prefixed addresses and bare hex ids of 7+ digits (object ids, commit hashes). */
const HEX_ID = /\b0x[\da-f]+\b|\b[\da-f]{7,}\b/gi;
/** `:line` or `:line:col` after a file name, which move whenever the code above them is edited. */
const LINE_COLUMN = /(\.[a-z]\w*):\d+(?::\d+)?/gi;
/** A number that is not part of an identifier (`test2` keeps its 2). */
const NUMBER = /(?<![\w$])\d+(?:\.\d+)*/g;
/** Runs of whitespace, which runners reflow freely. */
const WHITESPACE = /\s+/g;

/**
 * Replaces hex ids. A bare one must mix digits and letters: `deadbeef` may be a real word and
 * `1234567` a real number, which `maskVolatile` treats as one.
 */
function maskHex(match: string): string {
  const prefixed = match.startsWith("0x") || match.startsWith("0X");
  return prefixed || (/\d/.test(match) && /[a-f]/i.test(match)) ? "<hex>" : match;
}

/**
 * Masks what changes between two runs of the same failure but keeps numbers: timestamps,
 * durations, scratch directories, ids and line:col positions. For names, where `case 2` and
 * `case 3` are different tests.
 */
export function maskRunNoise(text: string): string {
  return text
    .replace(TIMESTAMP, "<time>")
    .replace(DURATION, "<duration>")
    .replace(TEMP_DIRECTORY, "<tmp>")
    .replace(UUID, "<id>")
    .replace(HEX_ID, maskHex)
    .replace(LINE_COLUMN, "$1:<line>")
    .replace(WHITESPACE, " ")
    .trim();
}

/**
 * Masks run noise and every free-standing number, for messages and values: `expected 3,
 * received 4` and `expected 3, received 5` are the same failure; quotes survive, so `123`
 * and `"123"` still differ.
 */
export function maskVolatile(text: string): string {
  return maskRunNoise(text).replace(NUMBER, "#");
}
