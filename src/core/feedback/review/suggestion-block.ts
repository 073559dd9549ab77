/** A fence line opening a GitHub suggestion block: its fence run, then the `suggestion` word. */
const OPENING = /^ {0,3}(`{3,}|~{3,})[ \t]*suggestion[ \t]*$/;

/** A fence line that may close a block: a run of backticks or tildes alone. */
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * The words of a comment whose only request is a GitHub `suggestion` block, which markdown
 * reading drops as code: `Suggested change: …` with the lines it proposes as they would be
 * committed (literal file text, so a link keeps its target), or `Suggested change: remove
 * these lines` for an empty one. Null when `body` holds no closed suggestion block. Read line by
 * line, as a fence closes only on a run of its own character at least as long.
 */
export function suggestionWords(body: string): string | null {
  const lines = body.split(/\r\n?|\n/);
  const start = lines.findIndex((line) => OPENING.test(line));
  const fence = start < 0 ? undefined : OPENING.exec(lines[start] ?? "")?.[1];
  if (fence === undefined) return null;
  const end = lines.findIndex((line, at) => at > start && closes(line, fence));
  if (end < 0) return null;
  const proposed = lines
    .slice(start + 1, end)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return `Suggested change: ${proposed === "" ? "remove these lines" : proposed}`;
}

/** Whether `line` closes a block opened by `fence`: the same character, at least as many. */
function closes(line: string, fence: string): boolean {
  const run = CLOSING.exec(line)?.[1];
  return run !== undefined && run[0] === fence[0] && run.length >= fence.length;
}
