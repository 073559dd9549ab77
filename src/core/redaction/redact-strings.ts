import { MIN_VALUE } from "./keyed-values.js";
import { redact, redactionMarker, replaceSpans, secretSpans } from "./redaction.js";
import { secretName } from "./secret-names.js";

/**
 * `value` with every string in it redacted, however deep: a parsed document or an answer,
 * redacted once where it enters. Keys are kept; only values can hold what a user typed. Walked
 * with a stack of its own, not by recursion: a hostile document nests deeper than the call stack
 * goes, and is refused by its decoder afterwards, not here.
 */
export function redactStrings<T>(value: T): T {
  const copy = (item: unknown, pending: [object, object][]): unknown => {
    if (typeof item === "string") return redact(item);
    if (typeof item !== "object" || item === null) return item;
    const target = Array.isArray(item) ? [] : {};
    pending.push([item, target]);
    return target;
  };
  const pending: [object, object][] = [];
  const root = copy(value, pending);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [source, target] = next;
    if (Array.isArray(source)) {
      for (const entry of source as unknown[]) (target as unknown[]).push(copy(entry, pending));
      continue;
    }
    for (const [key, entry] of Object.entries(source)) {
      const item = copy(entry, pending);
      // Defined, not assigned: a parsed `__proto__` key is data, not the copy's prototype.
      if (key === "__proto__") {
        Object.defineProperty(target, key, { value: item, enumerable: true, writable: true });
      } else (target as Record<string, unknown>)[key] = item;
    }
  }
  return root as T;
}

/**
 * A variable's value redacted as it reads after its name: a name that says secret (`API_TOKEN`,
 * `DB_PASSWORD`) loses its whole value, blanks and all; any other keeps what holds no secret
 * (`NODE_ENV` keeps `test`, `DATABASE_URL` only loses its URL's password).
 */
export function redactNamedValue(name: string, value: string): string {
  const meaning = secretName(name);
  if (meaning?.strong === true && value.length >= MIN_VALUE && !value.startsWith("[REDACTED:")) {
    return redactionMarker(meaning.kind);
  }
  const assignment = `${name}=${value}`;
  const start = name.length + 1;
  const spans = secretSpans(assignment).map((span) => ({
    ...span,
    start: Math.max(span.start, start),
  }));
  return replaceSpans(assignment, spans, start);
}
