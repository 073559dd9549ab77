/**
 * Prefixes that log transports write before every line of a test run's output, so that parsers
 * read the runner's own lines: CI raw logs (GitHub Actions, GitLab, `kubectl logs --timestamps`,
 * `gh run view --log`'s job and step columns), `docker compose` service columns, and the
 * package and task columns of Turborepo and `pnpm -r`.
 */
export interface LinePrefix {
  /** The prefix at the start of a line, anchored, in linear time. */
  readonly pattern: RegExp;
  /**
   * Whether the prefix names a source (a service, a task) rather than a moment: a named prefix
   * repeats, so one that never does is read as content (`file:line:` lists).
   */
  readonly named: boolean;
}

const SHAPES: readonly LinePrefix[] = [
  {
    // An ISO 8601 time, then GitLab's stream marker (`00O`, `01E+`) or a GitHub workflow-command
    // marker (`##[group]`, `##[error]`) when there is one; `gh run view --log` puts job and step
    // columns first.
    pattern:
      /^(?:[^\t\n]*\t[^\t\n]*\t)?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?(?:$| (?:[\da-f]{2}[EO]\+?(?: |$))?(?:##\[[a-z]+\])?)/u,
    named: false,
  },
  // docker compose: `app-1  | `, names padded to the longest.
  { pattern: /^[\dA-Za-z][\w.-]* *\|(?: |$)/u, named: true },
  // A package and its task: Turborepo's `web:test: ` (`@acme/web:test:unit: `), `pnpm -r`'s
  // `packages/web test: `. A task starts with a letter, a line number (`auth.go:10:2: `) does not.
  {
    pattern: /^@?[\w./-]+[ :][A-Za-z][\w.-]*(?::[\w.-]+)*:(?: |$)/u,
    named: true,
  },
];

/**
 * Non-empty lines from the start of a log that decide its prefixes: how a log was transported
 * shows from its first lines, and the stream reader must decide before it has read the rest.
 */
export const PREFIX_SAMPLE_LINES = 100;
/** Nested transports (a Turborepo task in a GitHub Actions log) are undone up to this depth. */
const MAX_DEPTH = 3;

/**
 * The prefixes, outermost first, that nearly every line of `sample` (a log's first
 * `PREFIX_SAMPLE_LINES` non-empty lines, cleaned) carries: at least three quarters of them, and
 * at least two. A named prefix must also repeat, four lines per name on average.
 */
export function linePrefixesOf(sample: readonly string[]): readonly LinePrefix[] {
  const prefixes: LinePrefix[] = [];
  let lines = sample.filter((line) => line.trim() !== "");
  while (prefixes.length < MAX_DEPTH) {
    const prefix = SHAPES.find((shape) => carriedByNearlyAll(shape, lines));
    if (prefix === undefined) break;
    prefixes.push(prefix);
    lines = lines.map((line) => withoutLinePrefixes(line, [prefix])).filter((line) => line !== "");
  }
  return prefixes;
}

function carriedByNearlyAll(shape: LinePrefix, lines: readonly string[]): boolean {
  const names = new Set<string>();
  let carried = 0;
  for (const line of lines) {
    const match = shape.pattern.exec(line);
    if (match === null) continue;
    carried += 1;
    if (shape.named) names.add(match[0].trimEnd());
  }
  return carried >= 2 && carried * 4 >= lines.length * 3 && names.size * 4 <= carried;
}

/** `line` without the prefixes it carries, outermost first; a line without them is unchanged. */
export function withoutLinePrefixes(line: string, prefixes: readonly LinePrefix[]): string {
  let rest = line;
  for (const { pattern } of prefixes) {
    const match = pattern.exec(rest);
    if (match !== null) rest = rest.slice(match[0].length);
  }
  return rest;
}

/**
 * `text` (cleaned: ANSI stripped, `\n` line ends) with the transport prefixes its first lines
 * show removed from every line that carries them; text without such prefixes is returned as is.
 */
export function stripLinePrefixes(text: string): string {
  const prefixes = linePrefixesOf(firstNonEmptyLines(text, PREFIX_SAMPLE_LINES));
  if (prefixes.length === 0) return text;
  return text
    .split("\n")
    .map((line) => withoutLinePrefixes(line, prefixes))
    .join("\n");
}

/** The first `count` non-empty lines of `text`, read without splitting the rest of it. */
function firstNonEmptyLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let start = 0;
  while (lines.length < count && start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== "") lines.push(line);
    start = end + 1;
  }
  return lines;
}
