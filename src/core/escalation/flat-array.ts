/**
 * The elements of an array printed on one line whose elements are all scalars (`["a", 0, 5]`,
 * `[1, 'x', None]`), as printed; null for anything else: nested arrays or objects, or text that
 * is not one bracketed array.
 */
export function flatArrayElements(text: string): string[] | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") || !trimmed.endsWith("]")) return null;
  const elements: string[] = [];
  let quote: string | null = null;
  let start = 1;
  for (let at = 1; at < trimmed.length - 1; at += 1) {
    const char = trimmed.charAt(at);
    if (quote !== null) {
      if (char === "\\") at += 1;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if ("[]{}".includes(char)) {
      return null;
    } else if (char === ",") {
      elements.push(trimmed.slice(start, at).trim());
      start = at + 1;
    }
  }
  if (quote !== null) return null;
  const last = trimmed.slice(start, -1).trim();
  if (last !== "" || elements.length > 0) elements.push(last);
  return elements.some((element) => element === "") ? null : elements;
}
