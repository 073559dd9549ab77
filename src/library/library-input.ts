import { isRecord } from "../core/json-record.js";
import { camelKey, toWire } from "../wire/codec.js";
import { InputError } from "../wire/input-error.js";

/** Keys whose values are maps keyed by data, whose keys are any spelling (see codec.ts). */
const DATA_KEYED = new Set(["reasons", "env", "answers"]);

/** A JSON string literal, as the wire's messages quote keys and values. */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;
const SNAKE_WORD = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/**
 * A wire message in the library's spelling: the field names it mentions (`max_iterations`,
 * `unknown key "budget_capp"`) camelCased, the values it quotes as they were.
 */
function respelled(message: string): string {
  let out = "";
  let at = 0;
  for (const match of message.matchAll(QUOTED)) {
    const index = match.index;
    const before = message.slice(at, index);
    out += before.replace(SNAKE_WORD, camelKey);
    out += /(?:unknown key |did you mean )$/.test(before) ? camelKey(match[0]) : match[0];
    at = index + match[0].length;
  }
  return out + message.slice(at).replace(SNAKE_WORD, camelKey);
}

/** A wire field path in the library's spelling; keys under a data-keyed map stay as they are. */
function respelledPath(path: string): string {
  const parts = path.split(".");
  return parts
    .map((part, index) => {
      const previous = parts[index - 1] ?? "";
      const owner = previous.includes("[") ? previous.slice(0, previous.indexOf("[")) : previous;
      if (DATA_KEYED.has(owner)) return part;
      const bracket = part.indexOf("[");
      return bracket === -1
        ? camelKey(part)
        : `${camelKey(part.slice(0, bracket))}${part.slice(bracket)}`;
    })
    .join(".");
}

/** A key written the wire's way in a camelCase value: the library names it as unknown. */
function wrongCaseKey(value: unknown): InputError | undefined {
  const pending: [unknown, string][] = [[value, ""]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, path] = next;
    if (Array.isArray(node)) {
      node.forEach((item, index) => pending.push([item, `${path}[${index}]`]));
      continue;
    }
    if (!isRecord(node)) continue;
    for (const [key, inner] of Object.entries(node)) {
      if (camelKey(key) !== key) {
        return new InputError(
          path || "document",
          `unknown key ${JSON.stringify(key)} (did you mean ${JSON.stringify(camelKey(key))}?)`,
        );
      }
      if (!DATA_KEYED.has(key)) pending.push([inner, path === "" ? key : `${path}.${key}`]);
    }
  }
  return undefined;
}

/**
 * Checks a library caller's plain camelCase value with a wire decoder, so that JavaScript
 * callers get the CLI's validation and its messages: a key in the wrong case, a misspelled key
 * or a wrong type is an InputError naming the field as the caller spells it, never a TypeError
 * or a key silently ignored. `required` names top-level sections the caller must give even
 * where the wire document may leave them out.
 */
export function fromLibrary<T>(
  value: unknown,
  decode: (wire: unknown) => T,
  required: readonly string[] = [],
): T {
  const wrongCase = wrongCaseKey(value);
  if (wrongCase !== undefined) throw wrongCase;
  try {
    const decoded = decode(toWire(value));
    const missing = required.find((key) => isRecord(value) && value[key] === undefined);
    if (missing !== undefined) throw new InputError(missing, "is required but missing");
    return decoded;
  } catch (error) {
    if (!InputError.isInputError(error)) throw error;
    const prefix = `${error.path}: `;
    const message = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    throw new InputError(respelledPath(error.path), respelled(message));
  }
}
