import { isRecord } from "../../json-record.js";

/** `value[key]` when `value` is an object, else undefined: review JSON is untrusted, any level may be missing. */
export function field(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The value at a path of keys, undefined as soon as one level is missing. */
export function fieldAt(value: unknown, ...keys: readonly string[]): unknown {
  return keys.reduce<unknown>((current, key) => field(current, key), value);
}

/** The non-blank string a value holds, else null. */
export function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** The 1-based line number a value holds, else null. */
export function lineOf(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1 ? value : null;
}

/** `value[index]` when `value` is an array and `index` a whole number: indices in review JSON are untrusted. */
export function elementAt(value: unknown, index: unknown): unknown {
  return Array.isArray(value) && typeof index === "number" && Number.isSafeInteger(index)
    ? (value as readonly unknown[])[index]
    : undefined;
}
