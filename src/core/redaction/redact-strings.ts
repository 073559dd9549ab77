import { redact, replaceSpans, secretSpans } from "./redaction.js";

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
 * A variable's value redacted as it reads after its name (`API_TOKEN=…`), so the name counts:
 * `API_TOKEN` and `hunter22` lose the value, `NODE_ENV` and `test` keep it.
 */
export function redactNamedValue(name: string, value: string): string {
  const assignment = `${name}=${value}`;
  const spans = secretSpans(assignment);
  const start = name.length + 1;
  const inValue = spans.map((span) => ({ ...span, start: Math.max(span.start, start) }));
  return replaceSpans(assignment, inValue, start);
}
