import type { Priority } from "../feedback.js";
import { conventionalComment } from "./conventional-comment.js";
import { markedPriority } from "./marked-priority.js";
import { isPraiseOnly } from "./praise-only.js";
import { pointMessage, type ReviewPoint } from "./review-point.js";

/** What one comment asks for, before a location is attached. */
export type ReviewerWords = Pick<ReviewPoint, "label" | "priority" | "message">;

/**
 * One comment's label, priority and message: a Conventional Comments label decides the
 * priority, else the words' own markers (`must`, `nit`), else `fallback` (the section's or the
 * format's). Null for praise (labelled, or a bare `Great stuff!`) and for a label with nothing
 * after it: neither asks for a change.
 */
export function reviewerWords(text: string, fallback: Priority): ReviewerWords | null {
  const comment = conventionalComment(text);
  if (comment === null) {
    const message = pointMessage(text);
    return message === "" || isPraiseOnly(message)
      ? null
      : { label: null, priority: markedPriority(text) ?? fallback, message };
  }
  const message = pointMessage(comment.subject);
  return comment.priority === null || message === ""
    ? null
    : { label: comment.label, priority: comment.priority, message };
}
