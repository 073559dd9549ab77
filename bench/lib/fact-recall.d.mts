/** A fact a person needs to fix a failure, as a fixture's facts record it; unknown parts null or absent. */
export interface FailureFact {
  readonly test?: string | null;
  readonly file?: string | null;
  readonly line?: number | null;
  readonly expected?: string | null;
  readonly received?: string | null;
  readonly keyword?: string | null;
  readonly rule?: string | null;
}
/** How facts are read: `elisions` reads every brief form, `"places"` only `…:N` as the file above. */
export interface RecallOptions {
  readonly elisions?: boolean | "places";
}
/** `text` with every suite separator replaced by one space. */
export function withPlainSeparators(text: string): string;
/** `text` with single quotes read as double quotes. */
export function withDoubleQuotes(text: string): string;
/** Whether `value` occurs in `text` as a whole token. */
export function containsToken(text: string, value: string): boolean;
/** `text` with each `…:N` spelled out as the file named just before. */
export function withElisionsRead(text: string): string;
/** How many of the facts' known parts `text` shows. */
export function factCounts(
  text: string,
  facts: readonly FailureFact[],
  options?: RecallOptions,
): { found: number; total: number };
/** The fraction of the facts' known parts that `text` shows; 1 when there are none. */
export function factRecall(
  text: string,
  facts: readonly FailureFact[],
  options?: RecallOptions,
): number;
