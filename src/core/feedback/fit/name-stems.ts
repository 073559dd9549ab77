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
