/** The digits at the start of `text`, as a number; null when it starts with none. */
function leadingNumber(text: string): number | null {
  let end = 0;
  while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
  return end === 0 ? null : Number(text.slice(0, end));
}

/**
 * The number right after the first `label` in a runner's summary line (`, Failures: 3`,
 * `failures=2`, ` errors="1"`); 0 when the line has none. Found with `indexOf`, not a regex
 * built from the label: linear on any line, and every regex of the product stays a literal.
 */
export function countAfter(line: string, label: string): number {
  for (let at = line.indexOf(label); at !== -1; at = line.indexOf(label, at + 1)) {
    const count = leadingNumber(line.slice(at + label.length));
    if (count !== null) return count;
  }
  return 0;
}

/** Whether the character at `index` is part of a word (letter, digit, `_`); false past either end. */
function isWordCharacter(text: string, index: number): boolean {
  const char = text[index];
  return char !== undefined && /\w/.test(char);
}

/**
 * The number right before the first ` word` in a summary line that ends there as a word
 * (`3 failed`, `1 error`); 0 when the line has none.
 */
export function countBefore(line: string, word: string): number {
  const label = ` ${word}`;
  for (let at = line.indexOf(label); at !== -1; at = line.indexOf(label, at + 1)) {
    if (isWordCharacter(line, at + label.length)) continue;
    let start = at;
    while (start > 0 && isDigit(line.charCodeAt(start - 1))) start -= 1;
    if (start < at && !isWordCharacter(line, start - 1)) return Number(line.slice(start, at));
  }
  return 0;
}

/** Whether a UTF-16 code unit is an ASCII digit. */
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
