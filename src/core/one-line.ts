/** `text` with its lines trimmed and joined by single spaces, blank lines dropped. */
export function oneLine(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
}
