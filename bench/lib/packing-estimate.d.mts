import type { FailureFact } from "./fact-recall.mjs";
/** What a text of `cap` characters could show of `facts` at best, roughly (see the .mjs). */
export function packingEstimate(
  facts: readonly FailureFact[],
  cap: number,
  failures?: number,
): { found: number; total: number };
