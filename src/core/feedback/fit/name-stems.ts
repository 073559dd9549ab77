import { ELLIPSIS } from "../clean/code-points.js";

/** How runners join a test's suite path, longest first so ` :: ` is not read as `::`. */
const SEPARATORS: readonly string[] = [" :: ", " › ", " > ", " ▶ ", " / ", "::"];
/** Shortest stem worth eliding: below it, `…` saves nothing a reader would miss. */
const MIN_STEM_LENGTH = 8;

/**
 * `name` as a list item writes it after `previous`: `…[params]` when both are cases of one
 * parametrised test (`paramsAt`), else `…SEP leaf` when both are leaves of the same stem —
 * `previous` up to its last separator (`tests/test_io.py::TestRead::`, `cart › `) — so a shared
 * test-id stem or suite path is written once; else the name whole.
 */
export function briefName(name: string, previous: string | null): string {
  if (previous === null) return name;
  const params = paramsAt(name);
  if (params >= MIN_STEM_LENGTH && paramsAt(previous) === params) {
    if (previous.startsWith(name.slice(0, params))) return `${ELLIPSIS}${name.slice(params)}`;
  }
  const head = previous.slice(0, paramsOpening(previous));
  for (const separator of SEPARATORS) {
    const cut = head.lastIndexOf(separator);
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
 * Where a parametrised test's parameters start in its name — the first `[` after its last
 * separator, in a name that ends with `]` (pytest's `test_x.py::test_size[args23-31.0 KiB]`,
 * `test.each`'s `sums [1, 2]`) — or -1: two cases of one test share all before it, so the second
 * is written `…[args24-32.0 MiB]`.
 */
export function paramsAt(name: string): number {
  if (!name.endsWith("]")) return -1;
  const head = name.slice(0, paramsOpening(name));
  const after = Math.max(
    0,
    ...SEPARATORS.map((separator) => {
      const at = head.lastIndexOf(separator);
      return at < 0 ? 0 : at + separator.length;
    }),
  );
  return name.indexOf("[", after);
}

/**
 * Where the bracketed group that ends a name opens (the `[` matching its last `]`), or the
 * name's length: a separator inside the parameters is the data's, not the suite path's
 * (rfc3986's `…::test_handles_percent_in_fragment[[::1%25lo]]`).
 */
export function paramsOpening(name: string): number {
  if (!name.endsWith("]")) return name.length;
  let depth = 0;
  for (let at = name.length - 1; at >= 0; at -= 1) {
    const char = name.charAt(at);
    if (char === "]") depth += 1;
    else if (char === "[") depth -= 1;
    if (depth === 0) return at;
  }
  return name.length;
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
