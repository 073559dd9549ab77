import type { Priority } from "../feedback.js";
import { firstPath, firstReference } from "./path-reference.js";
import { levelOf } from "./severity.js";
import { verdictOfLine } from "./verdict-line.js";

/**
 * What a heading (or a lead-in, or a kept `<details>` group) makes of the text under it:
 * `findings` are points; `praise` (✅, "What's good", "Strengths") and `summary`
 * ("Walkthrough", "Summary of Changes", "Highlights", "Evaluation Metrics", "Todo List") are
 * not; under `assessment` ("Security Assessment", "Performance Considerations") only what asks
 * for a change is a point; `verdict` is the closing recommendation; `neutral` says nothing.
 */
export type SectionKind = "findings" | "praise" | "summary" | "assessment" | "verdict" | "neutral";

/** What a heading says about the text under it: its kind, its level, its file and line. */
export interface Section {
  readonly kind: SectionKind;
  readonly priority: Priority | null;
  readonly path: string | null;
  /** The line of `path` the heading names (`### src/a.ts:12`, `### src/a.ts (18-21)`), else null. */
  readonly line: number | null;
}

/** Gemini's heading of a finding it could not post inline ends with its range: `src/a.ts (18-21)`. */
const HEADING_RANGE = /\((\d{1,9})(?:\s*-\s*\d{1,9})?\)$/;

/** The place a heading names: a `path:line`, a path with its range in brackets, else a file alone. */
function headingPlace(
  heading: string,
  ranged: boolean,
): { path: string | null; line: number | null } {
  const reference = firstReference(heading);
  if (reference !== null) return reference;
  const range = ranged ? HEADING_RANGE.exec(heading) : null;
  const before = range === null ? "" : heading.slice(0, range.index).trimEnd();
  const last = before.slice(before.lastIndexOf(" ") + 1);
  const path = range === null ? null : firstPath(last);
  if (path !== null) return { path, line: Number(range?.[1]) };
  return { path: firstPath(heading), line: null };
}

const PRAISE =
  /✅|👍|🎉|💯|\b(?:what'?s good|what is good|what works|what went well|strengths?|positives?|praise|kudos|nice work|well done|good practices)\b/i;
const FINDINGS =
  /\b(?:issues?|findings?|problems?|concerns?|bugs?|defects?|suggestions?|recommendations?|improvements?|enhancements?|required actions?|action items?|follow-?ups?|must fix|comments?|risks?|questions?|requests?|fix(?:es)?|blockers?)\b/i;
const SUMMARY =
  /\b(?:summary|overview|walkthrough|changes|changelog|highlights|description|context|key changes|files? (?:changed|reviewed)|metrics|scores?|evaluation|todo(?: list)?|checklist|statistics|stats|sequence diagrams?|poem)\b/i;
const ASSESSMENT =
  /\b(?:assessment|considerations?|analysis|security|performance|test coverage|testing|documentation|maintainability|readability|code quality|best practices|architecture|design)\b/i;

/**
 * The section a heading, lead-in or group summary opens. `ranged` reads `path (N)` as a line,
 * as headings mean it; a group's `src/a.ts (2)` counts its comments.
 */
export function sectionOf(heading: string, ranged = false): Section {
  const { path, line } = headingPlace(heading, ranged);
  const priority = levelOf(heading);
  const kind: SectionKind =
    verdictOfLine(heading) !== undefined
      ? "verdict"
      : PRAISE.test(heading)
        ? "praise"
        : priority !== null || FINDINGS.test(heading)
          ? "findings"
          : SUMMARY.test(heading)
            ? "summary"
            : ASSESSMENT.test(heading)
              ? "assessment"
              : "neutral";
  return { kind, priority, path, line };
}
