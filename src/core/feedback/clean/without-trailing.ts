/** `text` without the run of characters of `chars` that ends it (a loop, not a regex built from `chars`). */
export function withoutTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}
