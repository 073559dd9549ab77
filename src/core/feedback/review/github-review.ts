import type { ReviewStatus } from "../../iteration-check.js";
import type { Priority } from "../feedback.js";
import { field, lineOf, textOf } from "./json-fields.js";
import { isRecord, recordsOf, type JsonRecord } from "../../json-record.js";
import { plainReviewPoints, tokenPoints } from "./plain-review.js";
import { byPriority, pointMessage, type ReviewPoint } from "./review-point.js";
import { suggestionWords } from "./suggestion-block.js";
import { reviewTokens } from "./review-markdown.js";
import { tokensVerdict } from "./verdict-line.js";

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

/**
 * The priority of what a review says without a level of its own, by its verdict: a review that
 * rejects asks for every point it makes (high), an approval's remarks are optional (low).
 */
export const FALLBACK_OF_VERDICT: Readonly<Record<ReviewVerdict, Priority>> = {
  reject: "high",
  approve: "low",
};

/** CodeRabbit's note that a later commit settled the comment; what it asked stays as written. */
const ADDRESSED = /^✅ Addressed in commits? [0-9a-f]{7,40}(?: to [0-9a-f]{7,40})?$/;

/** A message without CodeRabbit's closing `✅ Addressed in commits …` note. */
function withoutAddressedNote(message: string): string {
  const at = message.lastIndexOf("✅ Addressed in commit");
  return at >= 0 && ADDRESSED.test(message.slice(at)) ? message.slice(0, at).trimEnd() : message;
}

/**
 * One inline comment as one point at its place: the body read as markdown (labels, badges,
 * code and collapsed details as in a text review), its parts joined, at the comment's own
 * `path` and line — a range's first line (`start_line`), else `line`, else where it was first
 * written (`original_*`, for an outdated comment), else the diff `position`. A comment that is
 * only a `suggestion` block says its request there (see `suggestionWords`). A reply
 * (`in_reply_to_id`) is discussion of the comment it answers, not a point.
 */
function commentPoint(comment: JsonRecord, fallback: Priority): ReviewPoint | null {
  if (comment["in_reply_to_id"] !== undefined && comment["in_reply_to_id"] !== null) return null;
  const body = textOf(comment["body"]) ?? "";
  // A comment is one finding: its headings (`## CodeQL / Incomplete sanitization`) are its title.
  const read = tokenPoints(reviewTokens(body, { headingsAsTitles: true }), fallback);
  const suggested = read.length === 0 ? suggestionWords(body) : null;
  const parts =
    suggested === null
      ? read
      : [{ path: null, line: null, priority: fallback, message: suggested, label: null }];
  const [first] = byPriority(parts);
  if (first === undefined) return null;
  const line =
    lineOf(comment["start_line"]) ??
    lineOf(comment["line"]) ??
    lineOf(comment["original_start_line"]) ??
    lineOf(comment["original_line"]) ??
    lineOf(comment["position"]);
  return {
    path: textOf(comment["path"]) ?? first.path,
    line: line ?? first.line,
    priority: first.priority,
    message: withoutAddressedNote(pointMessage(parts.map((part) => part.message).join(" "))),
    label: parts.find((part) => part.label !== null)?.label ?? null,
  };
}

/**
 * The points of GitHub review JSON (null when `document` is not one): a review's (or a
 * conversation comment's) body read as markdown, then its inline comments, each one point at
 * its place; praise and replies dropped. A review's state gives the priority of what names
 * none (`CHANGES_REQUESTED` high, `APPROVED` low), else its body's verdict line, else medium.
 */
export function githubReviewPoints(document: unknown): ReviewPoint[] | null {
  const entries = githubEntries(document);
  if (entries === null) return null;
  return entries.flatMap((entry) => {
    const verdict = STATUS_OF_STATE.get(entry["state"]) ?? bodyVerdict(entry);
    const fallback = verdict === undefined ? "medium" : FALLBACK_OF_VERDICT[verdict];
    if (isComment(entry)) return [commentPoint(entry, fallback)].filter((point) => point !== null);
    const body = plainReviewPoints(textOf(entry["body"]) ?? "", fallback);
    const comments = recordsOf(entry["comments"])
      .filter(isComment)
      .map((comment) => commentPoint(comment, fallback));
    return [...body, ...comments.filter((point) => point !== null)];
  });
}

/**
 * The verdict a review's body states when the review has no state (one copied without it): its
 * verdict line's (`Looks good Rachael.`, `Changes requested.`). A comment's body states none.
 */
function bodyVerdict(entry: JsonRecord): ReviewVerdict | undefined {
  const body = textOf(entry["body"]);
  return body === null || isComment(entry) ? undefined : tokensVerdict(reviewTokens(body));
}

/** The bodies of GitHub review JSON in order (null when `document` is not one), for the verdicts they state. */
export function githubReviewTexts(document: unknown): string[] | null {
  const entries = githubEntries(document);
  return entries === null ? null : entries.flatMap((entry) => textOf(entry["body"]) ?? []);
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
