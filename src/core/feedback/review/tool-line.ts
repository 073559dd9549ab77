/**
 * A compiler-style finding line: `path:line[:col]: level: words [rule]`, as gcc, mypy and
 * ShellCheck's `-f gcc` print it (`libexec/a:68:18: error: Use braces … [SC1087]`).
 */
const TOOL_LINE =
  /^(\S{1,500}?:\d{1,9}(?::\d{1,9})?):?[ \t]+(?:error|warning|note|info|style|hint)[ \t]*:[ \t]+(\S.*)$/i;
/** The `[rule]` such a line ends with. */
const RULE = /^\[([\w./@:-]{1,60})\]$/;

/** A tool's finding read from its line: its place and words without the level word, and its rule. */
export interface ToolLine {
  /** `path:line words`: the level word, which the point's priority carries, left out. */
  readonly message: string;
  readonly rule: string | null;
}

/** The finding a compiler-style line states (see `TOOL_LINE`), else null. */
export function toolLine(text: string): ToolLine | null {
  const match = TOOL_LINE.exec(text);
  if (match === null) return null;
  const [, place = "", words = ""] = match;
  const cut = words.lastIndexOf(" [");
  const rule = cut < 0 ? null : (RULE.exec(words.slice(cut + 1))?.[1] ?? null);
  const said = rule === null ? words : words.slice(0, cut).trimEnd();
  return { message: `${place} ${said}`, rule };
}
