/** A stretch of a text that holds a secret: `[start, end)` in code units, and what it is. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  /** Named in the marker that replaces it: `[REDACTED:kind]`. */
  readonly kind: string;
}

/**
 * Finds one family of secrets in a text, spans in order. Each detector must run in time linear
 * in the text whatever it holds: loopgate reads untrusted logs of many megabytes.
 */
export type Detector = (text: string) => readonly SecretSpan[];

/**
 * The spans of every match of `pattern` (global; with the `d` flag when `group` is given): the
 * whole match or only its `group`. `accept` may turn a match down (a word, not a token).
 */
export function patternSpans(
  text: string,
  pattern: RegExp,
  kind: string,
  group = 0,
  accept: (match: RegExpExecArray) => boolean = () => true,
): SecretSpan[] {
  const spans: SecretSpan[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === "") pattern.lastIndex += 1;
    const [start, end] =
      group === 0
        ? [match.index, match.index + match[0].length]
        : (match.indices?.[group] ?? [0, 0]);
    if (end > start && accept(match)) spans.push({ start, end, kind });
  }
  return spans;
}
