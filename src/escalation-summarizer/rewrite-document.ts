import * as v from "valibot";
import { decodeDocument } from "../wire/decode-document.js";
import { mapping, optionalNullable, text } from "../wire/fields.js";
import type { EscalationRewrite } from "./summarizer.js";

/** Non-blank text: a summarizer that empties a field has failed, not rewritten it. */
const rewritten = v.pipe(
  text,
  v.check((value) => value.trim() !== "", "expected non-blank text"),
);

/** Schema of what a summarizer writes: any of the three rewritable fields, nothing else. */
export const rewriteDocumentSchema = mapping(
  {
    attempts_summary: v.optional(rewritten),
    pattern_detected: optionalNullable(rewritten),
    question: v.optional(rewritten),
  },
  "expected a mapping with attempts_summary, pattern_detected and/or question",
);

/** Validates a summarizer's parsed output strictly (unknown keys, wrong types, blanks are errors). */
export function decodeRewrite(document: unknown): Partial<EscalationRewrite> {
  return decodeDocument(rewriteDocumentSchema, document) as Partial<EscalationRewrite>;
}
