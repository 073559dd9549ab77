import { truncateCodePoints } from "../clean/code-points.js";
import type { Failure } from "../feedback.js";

/** Longest message kept, as for every other failure field. */
const MAX_MESSAGE_LENGTH = 1000;

/** How serious a linter or compiler says a finding is. */
export type Severity = "error" | "warning" | "info";

/** One lint or type-check finding as a tool printed it. */
export interface Finding {
  readonly file: string | null;
  readonly line: number | null;
  readonly column?: number | undefined;
  readonly rule?: string | undefined;
  readonly message: string;
  readonly severity: Severity;
  /** The two sides of an assignability error (`Type 'string' is not assignable to type 'number'`). */
  readonly expected?: string | null;
  readonly received?: string | null;
}

/**
 * Findings as failures (SPEC §4): `test: null`, the place, the rule and the tool's words, errors
 * before warnings before notes (a warning never failed a build by itself), in the tool's order
 * within each.
 */
export function findingFailures(findings: readonly Finding[]): Failure[] {
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => rank[a.finding.severity] - rank[b.finding.severity] || a.index - b.index)
    .map(({ finding }) => ({
      test: null,
      file: finding.file,
      line: finding.line,
      expected: finding.expected ?? null,
      received: finding.received ?? null,
      message: truncateCodePoints(finding.message.trim(), MAX_MESSAGE_LENGTH),
      ...(finding.column === undefined ? {} : { column: finding.column }),
      ...(finding.rule === undefined || finding.rule === "" ? {} : { rule: finding.rule }),
    }));
}

/** The sum of the counts a tool's summary prints (`5 errors, 3 warnings`), or null when it prints none. */
export function summedCounts(counts: readonly (string | undefined)[]): number | null {
  const numbers = counts.filter((count) => count !== undefined).map(Number);
  return numbers.length === 0 ? null : numbers.reduce((sum, count) => sum + count, 0);
}

/**
 * The two sides of an assignability error, each with its quotes as printed: tsc's `Type 'A' is
 * not assignable to type 'B'` and `Argument of type 'A' is not assignable to parameter of type
 * 'B'`, pyright's `Type "A" is not assignable to return type "B"` and `"A" is not assignable to
 * "B"`. A is what the code has (received), B what the declaration wants (expected).
 */
export function assignability(
  message: string,
  quote: "'" | '"',
): { expected: string; received: string } | null {
  const verb = message.indexOf(" is not assignable to ");
  if (verb < 0) return null;
  const received = quotedEnding(message.slice(0, verb), quote);
  const expected = quotedStart(message.slice(verb + " is not assignable to ".length), quote);
  return received === null || expected === null ? null : { expected, received };
}

/** The quoted value `text` ends with, quotes included. */
function quotedEnding(text: string, quote: string): string | null {
  if (!text.endsWith(quote)) return null;
  const open = text.lastIndexOf(` ${quote}`, text.length - 2);
  const start = open < 0 ? (text.startsWith(quote) ? 0 : -1) : open + 1;
  return start < 0 || start >= text.length - 1 ? null : text.slice(start);
}

/** The first quoted value in `text` after at most a few words (`type`, `parameter of type`). */
function quotedStart(text: string, quote: string): string | null {
  const open = text.indexOf(quote);
  if (open < 0 || open > 30) return null;
  const close = text.indexOf(`${quote}`, open + 1);
  // A value's own quotes of the other kind may sit inside; its end is a quote before punctuation or the end.
  let end = close;
  while (end >= 0 && !/^(?:$|[\s.,;)])/.test(text.slice(end + 1, end + 2))) {
    end = text.indexOf(quote, end + 1);
  }
  return end < 0 ? null : text.slice(open, end + 1);
}
