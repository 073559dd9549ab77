/** A GitHub suggestion block: its fence, then the lines it proposes, up to a closing fence. */
const SUGGESTION = /^ {0,3}(`{3,}|~{3,})[ \t]*suggestion[ \t]*\n([\s\S]*?)^ {0,3}\1[ \t]*$/m;

/**
 * The words of a comment whose only request is a GitHub `suggestion` block, which markdown
 * reading drops as code: `Suggested change: …` with the lines it proposes as they would be
 * committed (literal file text, so a link keeps its target), or `Suggested change: remove
 * these lines` for an empty one. Null when `body` holds no suggestion block.
 */
export function suggestionWords(body: string): string | null {
  const match = SUGGESTION.exec(body.replace(/\r\n?/g, "\n"));
  if (match === null) return null;
  const lines = (match[2] ?? "").replace(/\s+/g, " ").trim();
  return `Suggested change: ${lines === "" ? "remove these lines" : lines}`;
}
