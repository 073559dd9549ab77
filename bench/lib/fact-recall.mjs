// Key-fact recall, the measure of feedback (SPEC §4): the fraction of the known parts of each
// failure's facts — test name, file, line, expected, received, error keyword, rule — that a
// feedback text shows. One implementation for the benches and the corpus tests.

/** Separators runners put between suite and test names; any of them reads as any other. */
const NAME_SEPARATORS = [" › ", " > ", " ▶ ", " :: "];

/** The parts of a fact the measure counts, in the order they are checked. */
const PARTS = ["test", "file", "line", "expected", "received", "keyword", "rule"];

/** `text` with every suite separator replaced by one space. */
export function withPlainSeparators(text) {
  return NAME_SEPARATORS.reduce((result, separator) => result.replaceAll(separator, " "), text);
}

/** `text` with single quotes read as double quotes, so quoting style never decides a match. */
export function withDoubleQuotes(text) {
  return text.replaceAll("'", '"');
}

/** Whether `neighbour` would extend the token whose edge character is `edge`. */
function isGlued(neighbour, edge) {
  if (neighbour === "") return false;
  // An edge of punctuation other than a quote (the `:` of `:5`) delimits the token by itself.
  if (!/[\w"]/.test(edge)) return false;
  return /[\w"]/.test(neighbour);
}

/**
 * Whether `value` occurs in `text` with no word character or quote glued to either side, so
 * `123` is not found inside `"123"` nor `:1` inside `:12`.
 */
export function containsToken(text, value) {
  if (value === "") return false;
  let at = text.indexOf(value);
  while (at >= 0) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + value.length);
    if (!isGlued(before, value.charAt(0)) && !isGlued(after, value.charAt(value.length - 1))) {
      return true;
    }
    at = text.indexOf(value, at + 1);
  }
  return false;
}

/**
 * `text` with each `…:N` (a brief form's "the file named just before") spelled out as that
 * file, so a file the feedback names once counts for every item that refers back to it.
 */
export function withElisionsRead(text) {
  return withPlacesRead(withDirectoriesRead(text));
}

/** `text` with each `…:N` at a line's start spelled out as the file named on a line above. */
function withPlacesRead(text) {
  let previous = null;
  return text
    .split("\n")
    .map((line) => {
      const elided = /^(\s*(?:- )?)…:(\d+)/.exec(line);
      if (elided !== null && previous !== null) {
        return `${elided[1]}${previous}:${elided[2]}${line.slice(elided[0].length)}`;
      }
      const named = /^\s*(?:- )?([^\s:…]+\.\w+):\d+/.exec(line);
      if (named !== null) previous = named[1];
      return line;
    })
    .join("\n");
}

/** A place's path (`dir/file.ext` before `:line`), `…/` first when it is elided. */
const PLACE_PATH = /(?<![\w./@…-])(…\/)?(\/?(?:[\w.@-]+\/)*[\w.@-]+\.\w+)(?=:\d)/g;

/**
 * `text` with each `…/rest:N` (a path in the directory of the path written just before it)
 * spelled out as that directory and `rest`.
 */
function withDirectoriesRead(text) {
  let directory = null;
  return text.replace(PLACE_PATH, (whole, elided, path) => {
    if (elided === undefined) {
      directory = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : null;
      return whole;
    }
    if (directory === null) return whole;
    const full = directory + path;
    directory = full.slice(0, full.lastIndexOf("/") + 1);
    return full;
  });
}

/**
 * Whether a test name shows as a brief `…SEP leaf` after its stem was written whole: a list
 * names a shared test-id stem or suite path once (`tests/test_a.py::TestX::test_one`, then
 * `…::test_two`). The stem is the name up to its last separator outside its parameters.
 */
function showsBriefName(prepared, name) {
  const head = name.slice(0, paramsOpening(name));
  for (const separator of ["::", ...NAME_SEPARATORS]) {
    const cut = head.lastIndexOf(separator);
    if (cut < 0) continue;
    const stem = name.slice(0, cut + separator.length);
    const brief = `…${separator}${name.slice(cut + separator.length)}`;
    // Any occurrence after the stem counts: another stem's brief leaf may come first
    // (`lower_camel::tests::test6`'s `…::test6` before `title::tests::test6`'s).
    for (let at = prepared.text.indexOf(brief); at > 0; at = prepared.text.indexOf(brief, at + 1)) {
      const after = prepared.text.charAt(at + brief.length);
      if (prepared.text.lastIndexOf(stem, at) >= 0 && !isGlued(after, brief.at(-1))) return true;
    }
    // A name can hold several separators (`param :: static :: multiple` holds `::` too): each is tried.
  }
  return showsBriefParams(prepared, name);
}

/**
 * Where the bracketed group that ends a name opens (the `[` matching its last `]`), or the
 * name's length: a separator inside a test's parameters (`…_fragment[[::1%25lo]]`) is no
 * separator of its suite path.
 */
function paramsOpening(name) {
  if (!name.endsWith("]")) return name.length;
  let depth = 0;
  for (let at = name.length - 1; at >= 0; at -= 1) {
    if (name[at] === "]") depth += 1;
    else if (name[at] === "[") depth -= 1;
    if (depth === 0) return at;
  }
  return name.length;
}

/**
 * Whether a parametrised test's name shows as `…[params]` after the name up to its parameters
 * was written (`tests/test_size.py::test_size[args23-31.0 KiB]`, then `…[args24-32.0 MiB]`):
 * any `[` of a name that ends with `]` may start its parameters.
 */
function showsBriefParams(prepared, name) {
  if (!name.endsWith("]")) return false;
  for (let open = name.indexOf("["); open > 0; open = name.indexOf("[", open + 1)) {
    const stem = name.slice(0, open);
    const brief = `…${name.slice(open)}`;
    for (let at = prepared.text.indexOf(brief); at > 0; at = prepared.text.indexOf(brief, at + 1)) {
      const after = prepared.text.charAt(at + brief.length);
      if (prepared.text.lastIndexOf(stem, at) >= 0 && !isGlued(after, "]")) return true;
    }
  }
  return false;
}

/** Whether `text` shows the `part` of `fact`; prepared once per text by `prepared`. */
function shows(prepared, part, value) {
  switch (part) {
    case "test":
      return (
        containsToken(prepared.plain, withPlainSeparators(value)) ||
        (prepared.briefNames && showsBriefName(prepared, value))
      );
    case "file":
      return prepared.text.includes(value);
    case "line":
      return containsToken(prepared.text, `:${value}`);
    case "expected":
    case "received":
      return containsToken(prepared.quoted, withDoubleQuotes(value));
    default:
      return prepared.lower.includes(String(value).toLowerCase());
  }
}

/**
 * `{found, total}`: how many of the facts' known parts `text` shows. A name matches whatever
 * separator joins its suites; a file by its path as written in the fact; a line as `:line`; a
 * value as a whole token with either quote style (`"123"` and `'123'` match each other, never
 * `123`); a keyword or rule case-insensitively. With `elisions`, `…:N` reads as the file of the
 * item above, `…/rest` as `rest` in the directory of the path before it, `…SEP leaf` as a name
 * sharing the stem of one written before it, and `…[params]` as another case of a parametrised
 * test written before it; with `elisions: "places"`, only `…:N` is read (the measure as issue 8
 * words it: every other brief form counts as a miss).
 */
export function factCounts(text, facts, { elisions = false } = {}) {
  const read =
    elisions === "places" ? withPlacesRead(text) : elisions ? withElisionsRead(text) : text;
  const prepared = {
    briefNames: elisions === true,
    text: read,
    plain: withPlainSeparators(read),
    quoted: withDoubleQuotes(read),
    lower: read.toLowerCase(),
  };
  let found = 0;
  let total = 0;
  for (const fact of facts) {
    for (const part of PARTS) {
      const value = fact[part];
      if (value === null || value === undefined) continue;
      total += 1;
      if (shows(prepared, part, String(value))) found += 1;
    }
  }
  return { found, total };
}

/** The fraction of the facts' known parts that `text` shows; 1 when there are none. */
export function factRecall(text, facts, options) {
  const { found, total } = factCounts(text, facts, options);
  return total === 0 ? 1 : found / total;
}
