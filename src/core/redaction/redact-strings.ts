import { MIN_VALUE } from "./keyed-values.js";
import { redact, redactionMarker, replaceSpans, secretSpans } from "./redaction.js";
import { secretName } from "./secret-names.js";

/**
 * `value` with every string in it redacted, however deep: a parsed document or an answer,
 * redacted once where it enters. Keys are kept; only values can hold what a user typed.
 */
export function redactStrings<T>(value: T): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item)) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key, redactStrings(entry)]),
  ) as T;
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
