/** A `path:line` a reviewer wrote inside their words. */
export interface PathReference {
  readonly path: string;
  readonly line: number;
}

/** Punctuation that wraps a reference in prose: `(src/a.ts:3)`, `` `src/a.ts:3` ``, `src/a.ts:3.` */
const TRAILING = `)"'\`>],.;:`;

/** The first `path:line` (or `path:line:col`) reference in `text`, or null when there is none. */
export function firstReference(text: string): PathReference | null {
  for (const token of text.split(/\s/)) {
    const reference = referenceIn(token);
    if (reference !== null) return reference;
  }
  return null;
}

/** The reference a whitespace-free token holds; a path needs a `.` or `/`, so `step:2` is not one. */
function referenceIn(token: string): PathReference | null {
  let end = token.length;
  while (end > 0 && TRAILING.includes(token.charAt(end - 1))) end -= 1;
  const core = token.slice(0, end).replace(/^[("'`<[]+/, "");
  const match = /^([\w./@-]+):(\d{1,9})(?::\d+)?$/.exec(core);
  const path = match?.[1];
  const line = Number(match?.[2]);
  return path !== undefined && /[./]/.test(path) && line >= 1 ? { path, line } : null;
}
