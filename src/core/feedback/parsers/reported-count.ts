/**
 * The sum of the counts a runner's summary lines state (`Tests: 7 failed`, `# fail 3`): group 1
 * of every match of `pattern` (a global pattern; a match without a group counts one), or null
 * when the output has no such line. A log of several runs (a workspace's packages, each with its
 * summary) counts them all.
 */
export function countsIn(output: string, pattern: RegExp): number | null {
  let total: number | null = null;
  for (const match of output.matchAll(pattern)) total = (total ?? 0) + Number(match[1] ?? 1);
  return total;
}

/**
 * The sum of the groups of the first of `lines` (trimmed) that `pattern` matches (`4 failures,
 * 1 errors` is 5), or null when none does: a closing line that counts failures and errors apart.
 */
export function firstCountsIn(lines: readonly string[], pattern: RegExp): number | null {
  for (const line of lines) {
    const match = pattern.exec(line.trim());
    if (match !== null) return match.slice(1).reduce((sum, group) => sum + Number(group ?? 0), 0);
  }
  return null;
}

/** Whether the character at `at` of `text` is an ASCII digit. */
function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

/**
 * The whole number written right after the first `label` in `text` that has one (`3` after
 * `, Failures: ` in `…, Failures: 3.`), or null. Found by position rather than by a pattern built
 * from the label, so it costs linear time whatever the text.
 */
export function numberAfter(text: string, label: string): number | null {
  for (let at = text.indexOf(label); at >= 0; at = text.indexOf(label, at + 1)) {
    const start = at + label.length;
    let end = start;
    while (isDigit(text, end)) end += 1;
    if (end > start) return Number(text.slice(start, end));
  }
  return null;
}

/**
 * The whole number written right before the first ` word` in `text` that has one and stands
 * alone, no letter glued after it (`3` in `3 failed, 1 passed` for `failed`), or null.
 */
export function numberBefore(text: string, word: string): number | null {
  const label = ` ${word}`;
  for (let at = text.indexOf(label); at >= 0; at = text.indexOf(label, at + 1)) {
    if (/\w/.test(text.charAt(at + label.length))) continue;
    let start = at;
    while (start > 0 && isDigit(text, start - 1)) start -= 1;
    if (start < at) return Number(text.slice(start, at));
  }
  return null;
}
