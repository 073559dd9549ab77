import { UsageError } from "./usage-error.js";

/** Milliseconds in one of a duration's units. */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000 };

/**
 * A duration flag's value, `500ms`, `30s` or `2m` (a bare number is seconds), in milliseconds,
 * within `[minMs, maxMs]`; anything else is a usage error naming the flag and the value.
 */
export function durationOption(
  command: string,
  flag: string,
  value: string,
  limits: { readonly minMs: number; readonly maxMs: number },
): number {
  const match = /^(\d{1,9}(?:\.\d{1,3})?)(ms|s|m)?$/.exec(value);
  const unit = UNIT_MS[match?.[2] ?? "s"] ?? Number.NaN;
  const ms = match === null ? Number.NaN : Math.round(Number(match[1]) * unit);
  if (!(ms >= limits.minMs && ms <= limits.maxMs)) {
    throw new UsageError(
      `${command}: --${flag} expects a duration from ${limits.minMs} ms to ${limits.maxMs / 1_000} s such as 30s, 500ms or 2m, got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}
