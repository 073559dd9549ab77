import type { ReviewStatus } from "../../iteration-check.js";
import { field, lineOf, textOf } from "./json-fields.js";
import { isRecord, recordsOf, type JsonRecord } from "../../json-record.js";
import { plainReviewPoints } from "./plain-review.js";
import type { ReviewPoint } from "./review-point.js";
import { reviewerWords } from "./reviewer-words.js";

/** A verdict a review can give by itself; `pending` is what its absence means. */
export type ReviewVerdict = Exclude<ReviewStatus, "pending">;

/** The verdicts a GitHub review state gives; `COMMENTED`, `PENDING` and `DISMISSED` give none. */
const STATUS_OF_STATE: ReadonlyMap<unknown, ReviewVerdict> = new Map([
  ["APPROVED", "approve"],
  ["CHANGES_REQUESTED", "reject"],
]);

/** A pull request review: it has a review `state`, or inline `comments` to carry. */
function isReview(value: JsonRecord): boolean {
  return typeof value["state"] === "string" || Array.isArray(value["comments"]);
}

/** A review comment as the REST API returns it: words about a file. */
function isComment(value: JsonRecord): boolean {
  return textOf(value["path"]) !== null && typeof value["body"] === "string";
}

/**
 * What `gh pr view --json reviews,comments` prints (cli/cli `PullRequestReview`): the reviews,
 * else `latestReviews`, then the conversation comments, which carry a body but no path or state.
 */
function ghViewEntries(document: JsonRecord): readonly JsonRecord[] | null {
  const reviews = document["reviews"] ?? document["latestReviews"];
  return Array.isArray(reviews)
    ? [...recordsOf(reviews), ...recordsOf(document["comments"])]
    : null;
}

/**
 * The reviews and review comments a parsed GitHub JSON document holds: one review object,
 * one comment, or an array of either (`GET …/pulls/N/reviews`, `GET …/pulls/N/comments`), or
 * `gh pr view --json` output; null when it is none of these, so another format may claim it.
 */
function githubEntries(document: unknown): readonly JsonRecord[] | null {
  const ghView = isRecord(document) ? ghViewEntries(document) : null;
  if (ghView !== null) return ghView;
  const entries = Array.isArray(document) ? document : [document];
  const recognised = entries.every(
    (entry) => isRecord(entry) && (isReview(entry) || isComment(entry)),
  );
  return recognised ? recordsOf(entries) : null;
}

/** One inline comment as a point at `path:line`; a diff `position` is the last resort for the line. */
function commentPoint(comment: JsonRecord): ReviewPoint | null {
  const words = reviewerWords(textOf(comment["body"]) ?? "", "medium");
  if (words === null) return null;
  const line =
    lineOf(comment["line"]) ?? lineOf(comment["original_line"]) ?? lineOf(comment["position"]);
  return { path: textOf(comment["path"]), line, ...words };
}

/**
 * The points of GitHub review JSON (null when `document` is not one): a review's (or a
 * conversation comment's) body read as markdown, then its inline comments, each at its
 * `path:line`; praise dropped.
 */
export function githubReviewPoints(document: unknown): ReviewPoint[] | null {
  const entries = githubEntries(document);
  if (entries === null) return null;
  return entries.flatMap((entry) => {
    if (isComment(entry)) return [commentPoint(entry)].filter((point) => point !== null);
    const body = plainReviewPoints(textOf(entry["body"]) ?? "");
    const comments = recordsOf(entry["comments"]).filter(isComment).map(commentPoint);
    return [...body, ...comments.filter((point) => point !== null)];
  });
}

/**
 * The verdict GitHub review JSON gives: `gh pr view`'s `reviewDecision` when it printed one,
 * else the latest review that approved or requested changes; undefined when no review did,
 * or `document` is not GitHub review JSON.
 */
export function githubReviewStatus(document: unknown): ReviewVerdict | undefined {
  const decision = STATUS_OF_STATE.get(field(document, "reviewDecision"));
  if (decision !== undefined) return decision;
  const entries = githubEntries(document) ?? [];
  const verdicts = entries.map((entry) => STATUS_OF_STATE.get(field(entry, "state")));
  return verdicts.findLast((verdict) => verdict !== undefined);
}
