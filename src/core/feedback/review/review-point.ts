import { codePointLength, truncateCodePoints } from "../clean/code-points.js";
import type { Priority } from "../feedback.js";

/** One thing a reviewer (a person or a tool) asked for, with where and how strongly. */
export interface ReviewPoint {
  /** The file the point is about, as the reviewer wrote it; null when the point names none. */
  readonly path: string | null;
  readonly line: number | null;
  readonly priority: Priority;
  /** The reviewer's words, whitespace collapsed, without the label. */
  readonly message: string;
  /** Conventional Comments label with its decorations (`issue (blocking)`), or a tool's rule id. */
  readonly label: string | null;
}

/** Longest message kept per point: enough for any request, bounded for pasted logs. */
const MAX_MESSAGE_LENGTH = 1000;
/** A location later than this many code points is repeated in front of its item, where cuts cannot reach it. */
const REFERENCE_REACH = 40;
const PRIORITY_RANK: Readonly<Record<Priority, number>> = { high: 0, medium: 1, low: 2 };

/** Untrusted words cut to a bounded message: cut before collapsing, so a 10 MB field costs one slice. */
export function pointMessage(words: string): string {
  const bounded = truncateCodePoints(words.slice(0, MAX_MESSAGE_LENGTH * 4), MAX_MESSAGE_LENGTH);
  return bounded.replace(/\s+/g, " ").trim();
}

/**
 * A tool's message as a point's, without the ` (rule-id)` Stylelint ends every message with:
 * the rule is the point's label already.
 */
export function toolMessage(words: string, ruleId: string | null): string {
  const message = pointMessage(words);
  const echo = ruleId === null ? "" : ` (${ruleId})`;
  return echo !== "" && message.endsWith(echo) ? message.slice(0, -echo.length) : message;
}

/** `path:line label: message`; the location is left out when the message already starts with it. */
export function reviewPointText(point: ReviewPoint): string {
  const body = point.label === null ? point.message : `${point.label}: ${point.message}`;
  if (point.path === null) return body;
  const location = point.line === null ? point.path : `${point.path}:${point.line}`;
  const at = body.indexOf(location);
  return at >= 0 && codePointLength(body.slice(0, at)) <= REFERENCE_REACH
    ? body
    : `${location} ${body}`;
}

/** Points ordered high priority first, keeping the reviewer's order within a priority. */
export function byPriority(points: readonly ReviewPoint[]): ReviewPoint[] {
  return [...points].sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority]);
}
