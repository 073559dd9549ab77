import { stripAnsi } from "../clean/ansi.js";
import { toWellFormed } from "../clean/code-points.js";
import { withoutProjectRoot } from "../clean/project-root.js";
import { redact } from "../../redaction/redaction.js";
import { FALLBACK_OF_VERDICT, githubReviewPoints, type ReviewVerdict } from "./github-review.js";
import { lintFindingPoints } from "./lint-findings.js";
import { lintJsonPoints } from "./lint-json.js";
import { tokenPoints } from "./plain-review.js";
import { rdjsonPoints } from "./rdjson.js";
import { reviewJsonDocuments } from "./review-json.js";
import type { ReviewPoint } from "./review-point.js";
import { reviewTokens } from "./review-markdown.js";
import { documentsVerdict } from "./review-status-of.js";
import { tokensVerdict } from "./verdict-line.js";
import { sarifPoints } from "./sarif.js";

/** The points of JSON review documents in the first format that claims them, or null when none does. */
function structuredPoints(documents: readonly unknown[]): ReviewPoint[] | null {
  const [only] = documents;
  const single = documents.length === 1;
  return (
    (single ? sarifPoints(only) : null) ??
    rdjsonPoints(documents) ??
    (single ? lintJsonPoints(only) : null) ??
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

/** A review read once: its points in the reviewer's order and the verdict it states. */
export interface ReadReview {
  readonly points: ReviewPoint[];
  readonly verdict: ReviewVerdict | undefined;
}

/** A text review: lint or type-check findings when a parser reads them, else markdown. */
function textReview(text: string): ReadReview {
  const findings = lintFindingPoints(text);
  if (findings !== null) return { points: findings.map(redactPoint), verdict: undefined };
  const tokens = reviewTokens(text);
  const verdict = tokensVerdict(tokens);
  const fallback = verdict === undefined ? "medium" : FALLBACK_OF_VERDICT[verdict];
  return { points: tokenPoints(tokens, fallback), verdict };
}

/**
 * A review's points (see `reviewPointsOf`) and the verdict it states (see `reviewStatusOf`),
 * read in one pass.
 */
export function readReview(text: string): ReadReview {
  const clean = redact(withoutProjectRoot(toWellFormed(stripAnsi(text))));
  const documents = reviewJsonDocuments(clean);
  const structured = documents === null ? null : structuredPoints(documents);
  const review =
    structured === null || documents === null
      ? textReview(clean)
      : { points: structured.map(redactPoint), verdict: documentsVerdict(documents) };
  return { points: distinctPoints(review.points), verdict: review.verdict };
}

/**
 * The points of a review, in the reviewer's order, whatever its format: SARIF 2.1.0, reviewdog
 * rdjson/rdjsonl, a linter's JSON report (ruff, pylint, ESLint, Semgrep), GitHub review JSON, lint and type-check output, else plain text, markdown
 * and Conventional Comments (also the fallback for malformed or unknown JSON). ANSI stripped,
 * paths under the project root the review's own paths show made relative (as in test
 * output), credentials redacted before anything is read; praise and repeated points dropped.
 */
export function reviewPointsOf(text: string): ReviewPoint[] {
  return readReview(text).points;
}
