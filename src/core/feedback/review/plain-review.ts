import type { Priority } from "../feedback.js";
import { MAX_LINE_LENGTH } from "../clean/log-lines.js";
import { conventionalComment } from "./conventional-comment.js";
import { markedPriority } from "./marked-priority.js";
import { firstReference } from "./path-reference.js";
import type { ReviewPoint } from "./review-point.js";
import { reviewerWords } from "./reviewer-words.js";

/** A list item: `-`, `*`, `•`, `+`, `1.` or `1)`. */
const BULLET = /^(?:[-*•+]|\d{1,3}[.)])\s+(\S.*)$/;
/** Lines that only state the verdict, which the summary already says. */
const VERDICT_ONLY =
  /^(?:changes requested|request(?:ing)? changes|rejected|not approved|needs work)[.!:]?$/i;

/** The point being read: its lines so far, and what may continue it. */
interface OpenPoint {
  text: string;
  readonly bullet: boolean;
  /** A Conventional Comment's discussion follows its subject, blank lines included. */
  readonly conventional: boolean;
}

/** Whether the open point is a lead-in (`Please fix:`): a paragraph ending with `:`. */
function isLeadIn(point: OpenPoint | null): point is OpenPoint {
  return point !== null && !point.bullet && point.text.endsWith(":");
}

/** A point starting with `start`. */
function openPoint(start: string, bullet: boolean): OpenPoint {
  return { text: start, bullet, conventional: conventionalComment(start) !== null };
}

/**
 * The points of a plain-text or markdown review, in the reviewer's order: list items (with
 * their continuation lines), Conventional Comments (with their discussion paragraphs), else
 * paragraphs, a line starting in lower case continuing the one before. Markdown headings and
 * lead-ins ending with `:` are not points, but their priority (`## Blocking`, `Nits:`) carries
 * to the points below them; a point's own label or marker wins. Praise is dropped; each
 * point's first `path:line` reference becomes its location.
 */
export function plainReviewPoints(text: string, fallback: Priority = "medium"): ReviewPoint[] {
  const points: ReviewPoint[] = [];
  let section: Priority | null = null;
  let current: OpenPoint | null = null;
  const flush = (): void => {
    if (current === null) return;
    // Markdown bold marks emphasis the priority already carries; it only costs length.
    const point = current.text.replaceAll("**", "").trim();
    current = null;
    if (VERDICT_ONLY.test(point)) return;
    const words = reviewerWords(point, section ?? fallback);
    if (words === null) return;
    const reference = firstReference(words.message);
    points.push({ path: reference?.path ?? null, line: reference?.line ?? null, ...words });
  };
  for (const raw of text.split("\n")) {
    const line = raw.slice(0, MAX_LINE_LENGTH).trimEnd();
    const trimmed = line.trim();
    const heading = /^#{1,6}\s+(\S.*)$/.exec(trimmed);
    const bullet = BULLET.exec(trimmed);
    if (trimmed === "") {
      // A lead-in stays open across the blank line markdown puts before its list.
      if (current?.conventional !== true && !isLeadIn(current)) flush();
    } else if (heading?.[1] !== undefined) {
      flush();
      section = markedPriority(heading[1]);
    } else if (bullet?.[1] !== undefined) {
      // A lead-in (`Please fix:`) is a heading for the list, not a point of its own.
      if (isLeadIn(current)) {
        section = markedPriority(current.text);
        current = null;
      }
      flush();
      current = openPoint(bullet[1], true);
    } else if (conventionalComment(trimmed) !== null) {
      flush();
      current = openPoint(trimmed, false);
    } else if (
      current !== null &&
      (current.conventional || /^\p{Ll}/u.test(trimmed) || (current.bullet && line !== trimmed))
    ) {
      current.text += ` ${trimmed}`;
    } else {
      flush();
      current = openPoint(trimmed, false);
    }
  }
  flush();
  return points;
}
