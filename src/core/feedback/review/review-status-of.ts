import { githubReviewStatus, githubReviewTexts, type ReviewVerdict } from "./github-review.js";
import { reviewJsonDocuments } from "./review-json.js";
import { reviewTokens } from "./review-markdown.js";
import { tokensVerdict } from "./verdict-line.js";

/**
 * The verdict a plain-text or markdown review states itself: its first verdict line or heading
 * (`Verdict: Request changes`, `## VERDICT: REQUEST CHANGES`, `Final Recommendation: APPROVE`,
 * `**Status:** Approved`, a line that is only `LGTM, thanks!` or `Changes requested.`).
 * Code, quotes of tool output, collapsed details and findings' words are not read.
 */
export function textVerdict(text: string): ReviewVerdict | undefined {
  return tokensVerdict(reviewTokens(text));
}

/** The verdict JSON review documents state: GitHub's, else the latest verdict line in a body. */
export function documentsVerdict(documents: readonly unknown[]): ReviewVerdict | undefined {
  const [only] = documents;
  if (documents.length !== 1) return undefined;
  return (
    githubReviewStatus(only) ??
    (githubReviewTexts(only) ?? []).map(textVerdict).findLast((verdict) => verdict !== undefined)
  );
}

/**
 * The verdict a review states by itself: GitHub review JSON's `APPROVED` is `approve`,
 * `CHANGES_REQUESTED` is `reject` (else the verdict its latest body states); a text review's
 * verdict line (see `textVerdict`); undefined for `COMMENTED` without one and for SARIF and
 * rdjson, which carry none, leaving the decision to the caller.
 */
export function reviewStatusOf(text: string): ReviewVerdict | undefined {
  const documents = reviewJsonDocuments(text);
  return documents === null ? textVerdict(text) : documentsVerdict(documents);
}
