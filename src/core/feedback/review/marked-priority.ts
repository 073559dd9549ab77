import type { Priority } from "../feedback.js";

/**
 * `blocking` or `non-blocking` used as a mark on the point — at its start, in brackets, before
 * a colon, or said of it (`this is blocking`, `not blocking`) — rather than as a technical word
 * (`a non-blocking QTimer`, `a blocking call`).
 */
const BLOCKING_MARK =
  /(?:^[\W_]{0,4}|[([]\s*|\b(?:is|are)\s+|\b(not|isn'?t|aren'?t)\s+)(non-?blocking|blocking|blocker)\b|\b(non-?blocking|blocking|blocker)\s*[:)\]]/i;

/**
 * The priority free-form review words mark themselves with, or null when they mark none:
 * `blocking`, `must`, `critical`, `security`, `vulnerability`, `injection` are high; `nit`, `minor`, `optional`,
 * `non-blocking` are low. `blocking` and `non-blocking` count only as a mark (see
 * `BLOCKING_MARK`); CodeRabbit's `_🟡 Minor_` emphasis is read as its word.
 */
export function markedPriority(text: string): Priority | null {
  const words = text.replaceAll("_", " ");
  const mark = BLOCKING_MARK.exec(words);
  const blocking = (mark?.[2] ?? mark?.[3])?.toLowerCase();
  if (blocking !== undefined && (blocking.startsWith("non") || mark?.[1] !== undefined)) {
    return "low";
  }
  if (blocking !== undefined) return "high";
  if (/\b(?:must|critical|security|vulnerability|injection)\b/i.test(words)) return "high";
  if (/\b(?:nit|nits|nitpick|minor|optional)\b/i.test(words)) return "low";
  return null;
}
