import { ELLIPSIS } from "../clean/code-points.js";

/** How runners join a test's suite path, longest first so ` :: ` is not read as `::`. */
const SEPARATORS: readonly string[] = [" :: ", " › ", " > ", " ▶ ", " / ", "::"];
/** Shortest stem worth eliding: below it, `…` saves nothing a reader would miss. */
const MIN_STEM_LENGTH = 8;

/**
 * `name` as a list item writes it after `previous`: `…SEP leaf` when both are leaves of the
 * same stem — `previous` up to its last separator (`tests/test_io.py::TestRead::`, `cart › `) —
 * so a shared test-id stem or suite path is written once; else the name whole.
 */
export function briefName(name: string, previous: string | null): string {
  if (previous === null) return name;
  for (const separator of SEPARATORS) {
    const cut = previous.lastIndexOf(separator);
    if (cut < 0) continue;
    const stem = previous.slice(0, cut + separator.length);
    const leaf = name.slice(stem.length);
    if (stem.length >= MIN_STEM_LENGTH && name.startsWith(stem) && leaf !== "") {
      return `${ELLIPSIS}${separator}${leaf}`;
    }
    return name;
  }
  return name;
}

/**
 * `name` as a list item writes it after all of `written` (in order): `…SEP leaf` against the
 * latest name whose stem it shares, so a describe prefix shared by failures that are not
 * adjacent (tests of two suites interleaved) is still written once; else the name whole.
 */
export function briefNameAfter(name: string, written: readonly string[]): string {
  for (let at = written.length - 1; at >= 0; at -= 1) {
    const brief = briefName(name, written[at] ?? null);
    if (brief !== name) return brief;
  }
  return name;
}
