/** A key that a JSON object holds twice, and where its second occurrence starts. */
export interface DuplicateKey {
  readonly key: string;
  readonly offset: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * The first key that some object of a valid JSON text holds twice (JSON.parse keeps the last
 * silently), or null. One pass with a set of keys per open object: linear in the text.
 */
export function duplicateJsonKey(json: string): DuplicateKey | null {
  // A set of keys for each open object, null for each open array.
  const open: (Set<string> | null)[] = [];
  let atKey = false;
  for (let index = 0; index < json.length; index += 1) {
    const code = json.charCodeAt(index);
    if (code === QUOTE) {
      const start = index;
      let escaped = false;
      for (index += 1; json.charCodeAt(index) !== QUOTE; index += 1) {
        if (json.charCodeAt(index) === BACKSLASH) {
          escaped = true;
          index += 1;
        }
      }
      const keys = open.at(-1);
      if (atKey && keys instanceof Set) {
        const raw = json.slice(start, index + 1);
        // `"a"` and `"\u0061"` are one key: escapes are decoded before keys are compared.
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (keys.has(key)) return { key, offset: start };
        keys.add(key);
        atKey = false;
      }
    } else if (code === OPEN_BRACE) {
      open.push(new Set());
      atKey = true;
    } else if (code === OPEN_BRACKET) {
      open.push(null);
      atKey = false;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      open.pop();
      atKey = false;
    } else if (code === COMMA) {
      atKey = open.at(-1) instanceof Set;
    }
  }
  return null;
}
