import { withoutTrailing } from "../clean/without-trailing.js";

/** A `path:line` a reviewer wrote inside their words. */
export interface PathReference {
  readonly path: string;
  readonly line: number;
}

/** Punctuation that wraps a reference in prose: `(src/a.ts:3)`, `` `src/a.ts:3` ``, `src/a.ts:3.` */
const TRAILING = `)"'\`>],.;:`;
// Line numbers are read up to 9 digits: a 10-digit "line" is an id, not a place.
/** `path:12`, `path:12:5`, `path:12-20` (a range's first line), `path#L12`. */
const COLON_FORM = /^([\w./@-]+)(?::(\d{1,9})(?::\d+|-\d+)?|#L(\d{1,9}))$/;
/** tsc's and MSBuild's `path(12,5)`. */
const PAREN_FORM = /^([\w./@-]+)\((\d{1,9})(?:,\d+)?\):?$/;
/** `line 57`, `lines 93-112`, `Line 51:9`, `L12`: a line named by a word, for a path said elsewhere. */
const LINE_WORD = /\b(?:lines?\s+|L)(\d{1,9})\b/i;
/** CodeRabbit's nitpicks start with their range: `` `670-691`: ``. */
const LEADING_RANGE = /^\W{0,2}(\d{1,9})(?:-\d+)?\W{0,2}:/;

/** A token with its wrapping punctuation cut: `` (`src/a.ts:3`), `` → `src/a.ts:3`. */
function coreOf(token: string): string {
  return withoutTrailing(token, TRAILING).replace(/^[("'`<[]+/, "");
}

/** Whether `path` names a file: a directory in it, or a name with a lettered extension. */
export function looksLikePath(path: string): boolean {
  if (path.includes("://")) return false;
  return path.includes("/") || /^[\w@-]{2,}(?:\.[\w-]+)*\.[a-z]\w{0,7}$/i.test(path);
}

/** The reference a whitespace-free token holds; a path needs a `.` or `/`, so `step:2` is not one. */
function referenceIn(token: string): PathReference | null {
  const paren = PAREN_FORM.exec(withoutTrailing(token.replace(/^[("'`<[]+/, ""), "`\"',.;"));
  const match = paren ?? COLON_FORM.exec(coreOf(token));
  const path = match?.[1];
  const line = Number(match?.[2] ?? match?.[3]);
  return path !== undefined && /[./]/.test(path) && line >= 1 ? { path, line } : null;
}

/** The first `path:line` (or `path:line:col`, `path(line,col)`, `path:from-to`) reference in `text`, or null. */
export function firstReference(text: string): PathReference | null {
  for (const token of text.split(/\s/)) {
    const reference = referenceIn(token);
    if (reference !== null) return reference;
  }
  return null;
}

/** The first file path `text` names (without a line), or null: a heading's or a lead-in's file. */
export function firstPath(text: string): string | null {
  for (const token of text.split(/\s/)) {
    // `src/a.ts:N/A`, as exporters write a comment with no line: the path before the colon.
    const whole = coreOf(token);
    const colon = whole.search(/:(?!\/\/)/);
    const core = colon < 0 ? whole : whole.slice(0, colon);
    if (/^[\w./@-]+$/.test(core) && looksLikePath(core)) return core;
  }
  return null;
}

/**
 * The line a point names without a path beside it: `` `670-691`: `` at its start (CodeRabbit),
 * else `line 57`, `Line 51:9`, `lines 93-112`, `L12`; null when it names none.
 */
export function lineOnly(text: string): number | null {
  const match = LEADING_RANGE.exec(text) ?? LINE_WORD.exec(text);
  const line = Number(match?.[1]);
  return line >= 1 ? line : null;
}

/**
 * Where a point is: its own `path:line` reference, else `context` (the file of its heading,
 * lead-in or group: a point about `idl/rag.proto` may mention another file) with the line its
 * words name, else a file its words name together with a line (`app/views.py line 23`; a file
 * only mentioned, "as CLAUDE.md says", is no place). Null parts when nothing names them.
 */
export function locationOf(
  text: string,
  context: string | null,
): { path: string | null; line: number | null } {
  const reference = firstReference(text);
  if (reference !== null) return reference;
  const line = lineOnly(text);
  const path = context ?? (line === null ? null : firstPath(text));
  return { path, line: path === null ? null : line };
}
