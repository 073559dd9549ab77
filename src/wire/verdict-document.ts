import type { VerdictInput } from "../core/conditions/condition.js";
import type { Verdict } from "../core/verdict.js";
import { integerAtLeast, limitEntries, mapping, measuredEntries } from "./fields.js";
import { decodeDocument } from "./decode-document.js";
import { toWire } from "./codec.js";
import { redactStrings } from "../core/redaction/redact-strings.js";

/** Schema of the `verdict` input document (SPEC §2). */
export const verdictDocumentSchema = mapping(
  {
    counters: mapping(
      { iteration: integerAtLeast(0), ...measuredEntries },
      "expected a mapping with iteration, spend, score, …",
    ),
    policy: mapping(
      { max_iterations: integerAtLeast(1), ...limitEntries },
      "expected a mapping with max_iterations, budget_cap, …",
    ),
  },
  "expected a mapping with counters and policy",
);

/**
 * Validates a parsed `verdict` document and converts it to the core's input. Its text (an
 * approval's `note` and `by`, signatures) is redacted first: the verdict quotes it.
 */
export function decodeVerdictDocument(document: unknown): VerdictInput {
  return decodeDocument(verdictDocumentSchema, redactStrings(document)) as VerdictInput;
}

/** The wire document printed for a verdict. */
export function encodeVerdict(verdict: Verdict<string>): unknown {
  return { verdict: toWire(verdict) };
}
