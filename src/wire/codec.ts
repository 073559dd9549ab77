import { isRecord } from "../core/json-record.js";

/** Wire key → TypeScript key: `feedback_max_length` → `feedbackMaxLength`. */
export function camelKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** TypeScript key → wire key: `feedbackMaxLength` → `feedback_max_length`. */
export function snakeKey(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** How many distinct keys each direction remembers; keys past it are converted every time. */
export const RENAMED_KEYS_KEPT = 4096;

/**
 * `rename` remembering what it gave: the runner converts the same few dozen field names for
 * every event, summary and step file it writes, and the regular expression was about 2% of its
 * CPU at 5,000 tasks. Bounded, because a record's keys may be data (a step report's fields).
 */
function remembered(rename: (key: string) => string): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let renamed = known.get(key);
    if (renamed === undefined) {
      renamed = rename(key);
      if (known.size < RENAMED_KEYS_KEPT) known.set(key, renamed);
    }
    return renamed;
  };
}

const toCamel = remembered(camelKey);
const toSnake = remembered(snakeKey);

function mapKeys(
  value: unknown,
  rename: (key: string) => string,
  verbatim: ReadonlySet<string>,
): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, rename, verbatim));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    // Maps keyed by data (condition codes in `reasons`) keep their keys as they are.
    out[rename(key)] = verbatim.has(key) ? inner : mapKeys(inner, rename, verbatim);
  }
  return out;
}

/**
 * Keys whose values are maps keyed by data, not by field names: condition codes in `reasons`,
 * variable names in a step's `env`, model names in `prices`, task ids in an answers file's `answers`.
 */
const DATA_KEYED = new Set(["reasons", "env", "answers", "prices"]);

/** Decodes a validated wire document into the TypeScript shape. */
export function fromWire(value: unknown): unknown {
  return mapKeys(value, toCamel, DATA_KEYED);
}

/** Encodes a TypeScript value into wire shape; undefined fields are dropped. */
export function toWire(value: unknown): unknown {
  return mapKeys(value, toSnake, DATA_KEYED);
}
