import { githubReviewStatus, type ReviewVerdict } from "./github-review.js";
import { reviewJsonDocuments } from "./review-json.js";

/**
 * The verdict a review states by itself: GitHub review JSON's `APPROVED` is `approve`,
 * `CHANGES_REQUESTED` is `reject`; undefined for `COMMENTED` and for every format that
 * carries no verdict (text, SARIF, rdjson), which leaves the decision to the caller.
 */
export function reviewStatusOf(text: string): ReviewVerdict | undefined {
  const documents = reviewJsonDocuments(text);
  const [only] = documents ?? [];
  return documents?.length === 1 ? githubReviewStatus(only) : undefined;
}
