import { stripAnsi } from "./ansi.js";
import { codePointLength, toWellFormed, truncateCodePoints } from "./code-points.js";
import type { Feedback, Priority } from "./feedback.js";
import { fitFeedback } from "./fit-feedback.js";
import { redact } from "./redaction.js";
import { reviewPoints, type ReviewPoint } from "./review-points.js";

/** Longest first point quoted in the summary. */
const MAX_GIST_LENGTH = 100;
/** A `path:line` reference later than this many code points is moved to the front of its item, where cuts cannot reach it. */
const REFERENCE_REACH = 40;

/** Summary of a rejection that came without a word. */
export const EMPTY_REVIEW_SUMMARY = "Review rejected without comments";

/**
 * Focused feedback from a reviewer's rejection (SPEC §3, §4): credentials redacted before
 * anything is read, one item per point, `path:line` references kept where cuts cannot reach
 * them, fitted to `maxLength`. Priority is high when any point is blocking (`blocking`, `must`,
 * `critical`, `security`), low when every point is a nit, medium otherwise.
 */
export function reviewFeedback(text: string, options: { readonly maxLength: number }): Feedback {
  const points = reviewPoints(redact(toWellFormed(stripAnsi(text))));
  const [first] = points;
  if (first === undefined) {
    return { ...fitFeedback(EMPTY_REVIEW_SUMMARY, [], options.maxLength), priority: "medium" };
  }
  const summary = `Review rejected: ${truncateCodePoints(first.text, MAX_GIST_LENGTH)}`;
  const items = points.map((point) => referenceFirst(point.text));
  return { ...fitFeedback(summary, items, options.maxLength), priority: reviewPriority(points) };
}

/** High if anything blocks, low if everything is a nit, else medium. */
function reviewPriority(points: readonly ReviewPoint[]): Priority {
  if (points.some((point) => point.severity === "blocking")) return "high";
  if (points.every((point) => point.severity === "nit")) return "low";
  return "medium";
}

/** The point with its first `path:line` reference in front when the reference sits late in a long text. */
function referenceFirst(text: string): string {
  let offset = 0;
  for (const token of text.split(/\s/)) {
    const reference = referenceIn(token);
    if (reference !== null) {
      return codePointLength(text.slice(0, offset)) > REFERENCE_REACH
        ? `${reference}: ${text}`
        : text;
    }
    offset += token.length + 1;
  }
  return text;
}

/** The `path:line` (or `path:line:col`) a whitespace-free token holds, without wrapping punctuation. */
function referenceIn(token: string): string | null {
  let end = token.length;
  while (end > 0 && `)"'\`>],.;:`.includes(token.charAt(end - 1))) end -= 1;
  const core = token.slice(0, end).replace(/^[("'`<[]+/, "");
  const match = /^([\w./@-]+):\d+(?::\d+)?$/.exec(core);
  const path = match?.[1];
  return path !== undefined && /[./]/.test(path) ? core : null;
}
