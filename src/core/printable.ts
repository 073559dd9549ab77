/**
 * What a terminal must not be handed raw: the C0 controls but tab and line feed (ESC starts
 * every escape sequence; CR rewrites a line), DEL, the C1 controls (CSI U+009B, OSC U+009D, …),
 * the line and paragraph separators, and the bidirectional controls that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** Whether the text holds anything `printable` would change. */
export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text);
}

/**
 * Text safe to print on a terminal: each character above becomes a visible escape, `\u001b`
 * for ESC, so `ESC ] 0 ; title BEL` shows as text instead of setting the window title. The
 * escape is JSON's own, so JSON stays valid JSON with the same value, as does a YAML
 * double-quoted string; printing it twice changes nothing more.
 */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
