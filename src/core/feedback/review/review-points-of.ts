import { stripAnsi } from "../clean/ansi.js";
import { toWellFormed } from "../clean/code-points.js";
import { redact } from "../../redaction/redaction.js";
import { githubReviewPoints } from "./github-review.js";
import { plainReviewPoints } from "./plain-review.js";
import { rdjsonPoints } from "./rdjson.js";
import { reviewJsonDocuments } from "./review-json.js";
import type { ReviewPoint } from "./review-point.js";
import { sarifPoints } from "./sarif.js";

/** The points of JSON review documents in the first format that claims them, or null when none does. */
function structuredPoints(documents: readonly unknown[]): ReviewPoint[] | null {
  const [only] = documents;
  const single = documents.length === 1;
  return (
    (single ? sarifPoints(only) : null) ??
    rdjsonPoints(documents) ??
    (single ? githubReviewPoints(only) : null)
  );
}

/** A point with credentials redacted again: JSON escapes (`\u0041KIA…`) can hide them from the first pass. */
function redactPoint(point: ReviewPoint): ReviewPoint {
  return {
    ...point,
    path: point.path === null ? null : redact(point.path),
    message: redact(point.message),
    label: point.label === null ? null : redact(point.label),
  };
}

/**
 * Points without repeats, the first kept: a comment listed under its review and again on its
 * own, or one finding a tool reports once per run, would otherwise take two items' room.
 */
function distinctPoints(points: readonly ReviewPoint[]): ReviewPoint[] {
  const seen = new Set<string>();
  return points.filter((point) => {
    const key = JSON.stringify([point.path, point.line, point.label, point.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The points of a review, in the reviewer's order, whatever its format: SARIF 2.1.0, reviewdog
 * rdjson/rdjsonl, GitHub review JSON, else plain text, markdown and Conventional Comments (also
 * the fallback for malformed or unknown JSON). ANSI stripped and credentials redacted before
 * anything is read; praise and repeated points dropped.
 */
export function reviewPointsOf(text: string): ReviewPoint[] {
  const clean = redact(toWellFormed(stripAnsi(text)));
  const documents = reviewJsonDocuments(clean);
  const structured = documents === null ? null : structuredPoints(documents);
  return distinctPoints(
    structured === null ? plainReviewPoints(clean) : structured.map(redactPoint),
  );
}
