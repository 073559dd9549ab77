import { fnv1a64 } from "./fnv1a.js";

/** File headers and hunk positions, which move when unrelated code moves; the change does not. */
const NOT_A_CHANGE = /^(?:\+\+\+|---|@@|diff |index )/;

/**
 * The fingerprint of a change: its added and removed lines, trailing spaces ignored, so the
 * same edit re-applied at other line numbers is the same change. Null for an absent or blank diff.
 */
export function diffSignature(diff: string | undefined): string | null {
  if (diff === undefined || diff.trim() === "") return null;
  const changed = diff
    .split("\n")
    .filter((line) => (line.startsWith("+") || line.startsWith("-")) && !NOT_A_CHANGE.test(line))
    .map((line) => line.trimEnd());
  // A diff with no +/- lines (a bare description of the change) is compared as written.
  return fnv1a64(changed.length > 0 ? changed.join("\n") : diff.trim());
}
