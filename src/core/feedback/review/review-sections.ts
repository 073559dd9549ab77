import type { Priority } from "../feedback.js";
import { firstPath } from "./path-reference.js";
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

/** What a heading says about the text under it: its kind, its level, its file. */
export interface Section {
  readonly kind: SectionKind;
  readonly priority: Priority | null;
  readonly path: string | null;
}

const PRAISE =
  /✅|👍|🎉|💯|\b(?:what'?s good|what is good|what works|what went well|strengths?|positives?|praise|kudos|nice work|well done|good practices)\b/i;
const FINDINGS =
  /\b(?:issues?|findings?|problems?|concerns?|bugs?|defects?|suggestions?|recommendations?|improvements?|enhancements?|required actions?|action items?|follow-?ups?|must fix|comments?|risks?|questions?|requests?|fix(?:es)?|blockers?)\b/i;
const SUMMARY =
  /\b(?:summary|overview|walkthrough|changes|changelog|highlights|description|context|key changes|files? (?:changed|reviewed)|metrics|scores?|evaluation|todo(?: list)?|checklist|statistics|stats|sequence diagrams?|poem)\b/i;
const ASSESSMENT =
  /\b(?:assessment|considerations?|analysis|security|performance|test coverage|testing|documentation|maintainability|readability|code quality|best practices|architecture|design)\b/i;

/** The section a heading, lead-in or group summary opens. */
export function sectionOf(heading: string): Section {
  const path = firstPath(heading);
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
  return { kind, priority, path };
}
