/** How strongly a reviewer marked a point. */
export type Severity = "blocking" | "normal" | "nit";

/** One thing a reviewer asked for, as they wrote it, with how strongly they asked. */
export interface ReviewPoint {
  readonly text: string;
  readonly severity: Severity;
}

/** Longest review line read; beyond it is pasted data, not a request. */
const MAX_LINE_LENGTH = 4000;
/** A list item: `-`, `*`, `•`, `+`, `1.` or `1)`. */
const BULLET = /^(?:[-*•+]|\d{1,3}[.)])\s+(\S.*)$/;
/** Lines that only state the verdict, which the summary already says. */
const VERDICT_ONLY =
  /^(?:changes requested|request(?:ing)? changes|rejected|not approved|needs work)[.!:]?$/i;

/**
 * The reviewer's points, in their order: list items (with their continuation lines), else
 * paragraphs, a line starting in lower case continuing the one before. Markdown headings and
 * lead-ins ending with `:` are not points, but their severity (`## Blocking`, `Nits:`) carries
 * to the points below them; a point's own marker wins.
 */
export function reviewPoints(text: string): ReviewPoint[] {
  const points: ReviewPoint[] = [];
  let section: Severity | null = null;
  let current: { text: string; bullet: boolean } | null = null;
  const flush = (): void => {
    if (current === null) return;
    // Markdown bold marks emphasis the severity already carries; it only costs length.
    const point = current.text.replaceAll("**", "").trim();
    current = null;
    if (point === "" || VERDICT_ONLY.test(point)) return;
    points.push({ text: point, severity: severityOf(point) ?? section ?? "normal" });
  };
  for (const raw of text.split("\n")) {
    const line = raw.slice(0, MAX_LINE_LENGTH).trimEnd();
    const trimmed = line.trim();
    const heading = /^#{1,6}\s+(\S.*)$/.exec(trimmed);
    const bullet = BULLET.exec(trimmed);
    if (trimmed === "") {
      flush();
    } else if (heading?.[1] !== undefined) {
      flush();
      section = severityOf(heading[1]);
    } else if (bullet?.[1] !== undefined) {
      // A lead-in (`Please fix:`) is a heading for the list, not a point of its own.
      if (current !== null && !current.bullet && current.text.trimEnd().endsWith(":")) {
        section = severityOf(current.text);
        current = null;
      }
      flush();
      current = { text: bullet[1], bullet: true };
    } else if (
      current !== null &&
      (/^\p{Ll}/u.test(trimmed) || (current.bullet && line !== trimmed))
    ) {
      current.text += ` ${trimmed}`;
    } else {
      flush();
      current = { text: trimmed, bullet: false };
    }
  }
  flush();
  return points;
}

/** The severity a text marks itself with, or null when it marks none. */
function severityOf(text: string): Severity | null {
  if (/\bnon-?blocking\b/i.test(text)) return "nit";
  if (/\b(?:blocking|blocker|must|critical|security)\b/i.test(text)) return "blocking";
  if (/\b(?:nit|nits|nitpick|minor|optional)\b/i.test(text)) return "nit";
  return null;
}
