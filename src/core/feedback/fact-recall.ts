/**
 * A fact a person needs to fix a failing test, as a fixture's `expected.json` records it: which
 * test, where, expected and received as the runner printed them, and a keyword of the error's
 * own words (`RangeError`, `timed out`). Unknown or irrelevant parts are null or absent.
 */
export interface FailureFact {
  readonly test?: string | null;
  readonly file?: string | null;
  readonly line?: number | null;
  readonly expected?: string | null;
  readonly received?: string | null;
  readonly keyword?: string | null;
}

/** Separators runners put between suite and test names; any of them reads as any other. */
const NAME_SEPARATORS: readonly string[] = [" › ", " > ", " ▶ ", " :: "];

/**
 * The fraction of the facts' known parts (test name, file, line, expected, received, keyword)
 * that appear in `text` — key-fact recall, the bench's measure of feedback (SPEC §4). A name
 * matches whatever separator joins its suites; a file matches by its path as written in the
 * fact; a line as `:line`; a value as a whole token with either quote style (`"123"` and
 * `'123'` match each other, never `123`); a keyword case-insensitively. 1 when there are no facts.
 */
export function factRecall(text: string, facts: readonly FailureFact[]): number {
  const plain = withPlainSeparators(text);
  const quoted = withDoubleQuotes(text);
  const lower = text.toLowerCase();
  let known = 0;
  let found = 0;
  const count = (present: boolean): void => {
    known += 1;
    if (present) found += 1;
  };
  for (const fact of facts) {
    if (fact.test != null) count(containsToken(plain, withPlainSeparators(fact.test)));
    if (fact.file != null) count(text.includes(fact.file));
    if (fact.line != null) count(containsToken(text, `:${fact.line}`));
    if (fact.expected != null) count(containsToken(quoted, withDoubleQuotes(fact.expected)));
    if (fact.received != null) count(containsToken(quoted, withDoubleQuotes(fact.received)));
    if (fact.keyword != null) count(lower.includes(fact.keyword.toLowerCase()));
  }
  return known === 0 ? 1 : found / known;
}

/** `text` with every suite separator replaced by one space. */
export function withPlainSeparators(text: string): string {
  return NAME_SEPARATORS.reduce((result, separator) => result.replaceAll(separator, " "), text);
}

/** `text` with single quotes read as double quotes, so quoting style never decides a match. */
export function withDoubleQuotes(text: string): string {
  return text.replaceAll("'", '"');
}

/**
 * Whether `value` occurs in `text` with no word character or quote glued to either side, so
 * `123` is not found inside `"123"` nor `:1` inside `:12`.
 */
export function containsToken(text: string, value: string): boolean {
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

/** Whether `neighbour` would extend the token whose edge character is `edge`. */
function isGlued(neighbour: string, edge: string): boolean {
  if (neighbour === "") return false;
  // An edge of punctuation other than a quote (the `:` of `:5`) delimits the token by itself.
  if (!/[\w"]/.test(edge)) return false;
  return /[\w"]/.test(neighbour);
}
