import type { Priority } from "../feedback.js";
import { conventionalComment } from "./conventional-comment.js";
import { markedPriority } from "./marked-priority.js";
import { withoutNoise } from "./message-noise.js";
import { isPageChrome } from "./page-chrome.js";
import { firstPath, firstReference, locationOf } from "./path-reference.js";
import { isPraiseOnly } from "./praise-only.js";
import { reviewTokens, type ReviewToken } from "./review-markdown.js";
import { recordPlace } from "./review-records.js";
import { pointMessage, type ReviewPoint } from "./review-point.js";
import { asksForChange, describesChange, isBotCount, reportsNothing } from "./review-prose.js";
import { sectionOf, type Section } from "./review-sections.js";
import { levelOf, toolLevelOf } from "./severity.js";
import { toolLine } from "./tool-line.js";
import { verdictOfLine } from "./verdict-line.js";

/** Lines that only state the verdict, which the summary already says. */
const VERDICT_ONLY =
  /^(?:changes requested|request(?:ing)? changes|rejected|not approved|needs work)[.!:]?$/i;
/** CodeRabbit's label line: `_🩺 Stability & Availability_ | _🟠 Major_ | _⚡ Quick win_`, after an optional range. */
const LABEL_LINE = /^(?:\d{1,9}(?:-\d{1,9})?:\s*)?_[^_|]{1,60}_(?:\s*\|\s*_[^_|]{1,60}_){0,5}$/;
/** CodeRabbit's label inside a line (a supervisor's list: `path:46 summary=_⚠️ Potential issue_ | _🟠 Major_ **Title**`). */
const INLINE_LABEL = /(?:^|\s|=)(_[^_|]{1,60}_(?:\s*\|\s*_[^_|]{1,60}_){1,5})(?=\s|$)/;
/** Gemini's badge, read from `![medium](…)` as `[medium]`, or its alt alone on a line as a page's text shows it. */
const BADGE_LINE = /^\[(?:critical|high|medium|low|P[0-3])\]$|^(?:critical|high|medium|low)$/i;
/** A severity word opening a point: `High — …`, `[Major] …`, `Severity: low — …`, a page's `P1 Badge …`, cubic's `P2: …`. */
const LEVEL_PREFIX =
  /^(?:severity\s*:\s*)?(?:\[(critical|blocker|high|medium|major|minor|low|trivial|nit(?:pick)?|P[0-3])\]|\((critical|blocker|high|medium|major|minor|low|trivial|nit(?:pick)?)\)|(critical|blocker|high|medium|major|minor|low|trivial|nit(?:pick)?)\s*[—–:|-]|(P[0-3])(?:\s+badge\b|\s*[—–:|-]))\s*/i;
/** A paragraph that sums the review up under a name (`Overall Assessment: …`, `Summary: …`). */
const SUMMARY_LABEL =
  /^(?:overall(?:\s+(?:assessment|summary|impression|verdict))?|assessment|summary|overview|conclusion|tl;?dr)\s*:/i;
/** Where a closing paragraph approves or merges, it is the reviewer's conclusion, not a point. */
const CONCLUSION = /\b(?:approv\w*|lgtm|merg(?:e|ed|ing))\b/i;

/** Depth of `<details>` groups: below every heading level, nested by how many are open. */
const GROUP_DEPTH = 100;

/** One heading's, group's or lead-in's section, with the level it was opened at. */
interface OpenSection extends Section {
  readonly depth: number;
}

/** The point being read. */
interface OpenPoint {
  readonly parts: string[];
  readonly bullet: boolean;
  readonly indent: number;
  /** A labelled or titled finding takes the paragraphs after it until the next finding. */
  readonly absorbing: boolean;
  /** Opened by a label (a level, a badge, a Conventional Comments label), not only a bold title. */
  readonly labelled: boolean;
  /** Set once a blank line passed: a list item then continues only with indented lines. */
  blank: boolean;
  /** A label line with no words yet: its title is the next line. */
  labelOnly: boolean;
  /** Set once its words introduced a list with a colon: the list's items are its own. */
  steps: boolean;
  readonly priority: Priority | null;
  readonly line: number | null;
  readonly section: Section;
}

/** A point as read, before intros and outros are told from findings. */
interface Candidate {
  readonly point: ReviewPoint;
  /** An unlocated, unlabelled paragraph that asks for nothing: dropped when anything else is a point. */
  readonly prose: boolean;
  /** A short unlabelled line naming a place: the title of a labelled finding right after it. */
  readonly header: boolean;
}

/** A label at a point's start: the priority it gives and the words left after it. */
interface Label {
  readonly priority: Priority;
  readonly rest: string;
  readonly line: number | null;
}

/** The priority a label line (CodeRabbit's, a badge) or a severity word at a point's start gives. */
function labelOf(text: string): Label | null {
  if (conventionalComment(text) !== null) return null;
  if (LABEL_LINE.test(text) || BADGE_LINE.test(text)) {
    const priority = levelOf(text);
    const line = /^(\d{1,9})(?:-\d{1,9})?:/.exec(text)?.[1];
    return priority === null
      ? null
      : { priority, rest: "", line: line === undefined ? null : Number(line) };
  }
  const prefix = LEVEL_PREFIX.exec(text);
  const word = prefix === null ? "" : (prefix[1] ?? prefix[2] ?? prefix[3] ?? prefix[4] ?? "");
  const priority = prefix === null ? null : levelOf(word);
  return prefix === null || priority === null
    ? null
    : { priority, rest: text.slice(prefix[0].length), line: null };
}

/** The nearest section that says something about `key`, innermost first. */
function nearest<K extends keyof Section>(
  sections: readonly OpenSection[],
  key: K,
  empty: Section[K],
): Section[K] {
  for (let index = sections.length - 1; index >= 0; index -= 1) {
    const value = sections[index]?.[key];
    if (value !== null && value !== undefined && value !== "neutral") return value;
  }
  return empty;
}

/** The effective section of a point: innermost kind, priority and file (with that section's line). */
function effectiveSection(sections: readonly OpenSection[]): Section {
  const placed = sections.findLast((section) => section.path !== null);
  return {
    kind: nearest(sections, "kind", "neutral"),
    priority: nearest(sections, "priority", null),
    path: placed?.path ?? null,
    line: placed?.line ?? null,
  };
}

/** A section that only places the points under it: a place line's, a record's, front matter's. */
function placeSection(path: string, line: number | null, depth: number): OpenSection {
  return { kind: "neutral", priority: null, path, line, depth };
}

/** The words of a line that is only a place (`src/a.py:12`, `<location> src/a.py:3-9 </location>`, `src/a.py`), else null. */
function placeOnly(text: string): { path: string; line: number | null } | null {
  const words = text.trim();
  if (/\s/.test(words)) return null;
  const reference = firstReference(words);
  if (reference !== null) return reference;
  const path = firstPath(words);
  return path === null || !path.includes("/") ? null : { path, line: null };
}

/** A place given to the points after it, and the point it makes itself if none follows. */
interface PlaceState {
  readonly section: OpenSection;
  unused: Candidate | null;
}

/** GitHub's page text above a comment on a file's lines: `Comment on lines +470 to +474`. */
const COMMENT_ON_LINES = /^comment on lines? [+-]?(\d{1,9})(?: to [+-]?\d{1,9})?$/i;

/** Most words a line naming a place may have and still title the finding after it. */
const MAX_HEADER_WORDS = 12;

/** Longest title line ended with a full stop where it meets the paragraphs after it. */
const MAX_TITLE_LENGTH = 120;

/**
 * A point's lines as one text. A labelled or titled finding's title without an end of its own
 * (Codex's `**P2 Badge Reject truncated calls**`, then its paragraph) is ended with a full stop:
 * it is the finding's first sentence, not the start of the paragraph's.
 */
function joinedParts(open: OpenPoint): string {
  const at = open.parts.findIndex((part) => part.trim() !== "");
  const title = open.parts[at]?.trim() ?? "";
  const rest = open.parts.slice(at + 1).join(" ");
  const bare = title.length <= MAX_TITLE_LENGTH && /[\p{L}\p{N})`'"]$/u.test(title);
  if (!open.absorbing || at < 0 || !bare || rest.trim() === "") return open.parts.join(" ");
  return `${title}. ${rest}`;
}

/**
 * The point an open point makes, or null when it is none: a verdict, a bot's count, a report
 * that nothing was found, praise, or text under a praise or summary section.
 */
function candidateOf(open: OpenPoint, fallback: Priority): Candidate | null {
  const text = pointMessage(joinedParts(open));
  if (text === "" || VERDICT_ONLY.test(text) || verdictOfLine(text) !== undefined) return null;
  if (isBotCount(text) || reportsNothing(text) || SUMMARY_LABEL.test(text)) return null;
  const { section } = open;
  const comment = conventionalComment(text);
  if (comment !== null && (comment.priority === null || comment.subject === "")) return null;
  const words = withoutNoise(comment === null ? text : pointMessage(comment.subject));
  const tool = comment === null ? toolLine(words) : null;
  const message = tool?.message ?? words;
  if (message === "" || isPraiseOnly(message) || isPageChrome(message)) return null;
  const location = locationOf(message, section.path);
  const own = firstReference(message) !== null;
  const sectionLine =
    location.path !== null && location.path === section.path ? section.line : null;
  const line = own ? location.line : (open.line ?? sectionLine ?? location.line);
  const located = own || (location.path !== null && line !== null);
  const labelled = comment !== null || open.priority !== null;
  if (section.kind === "praise") return null;
  if (section.kind === "verdict" && !labelled && !located) return null;
  if (section.kind === "summary" && !located) return null;
  const asks = asksForChange(message);
  if (section.kind === "assessment" && !asks && !labelled && !located) return null;
  const inline = INLINE_LABEL.exec(text)?.[1];
  const priority =
    comment?.priority ??
    open.priority ??
    toolLevelOf(words) ??
    (inline === undefined ? null : levelOf(inline)) ??
    markedPriority(message) ??
    section.priority ??
    fallback;
  const paragraph = !open.bullet && !open.absorbing && !labelled && !located;
  const outside = section.kind !== "findings" && section.priority === null;
  return {
    point: {
      path: location.path,
      line,
      priority,
      message,
      label: comment?.label ?? tool?.rule ?? null,
    },
    prose: paragraph && outside && (!asks || CONCLUSION.test(message) || describesChange(message)),
    header:
      !open.bullet &&
      !open.absorbing &&
      !labelled &&
      !asks &&
      (own || firstPath(message) !== null) &&
      message.split(" ").length <= MAX_HEADER_WORDS,
  };
}

/**
 * Whether a line continues the open point. A labelled finding that is only its label so far
 * takes the next line (CodeRabbit's title), and the list its words introduce with a colon. A list item takes indented lines (its code and
 * explanation), and a lower-case line before any blank; every list item, nested or not, is a
 * point of its own. A labelled or titled finding takes paragraphs until the next start; a
 * paragraph takes a line starting in lower case.
 */
function continues(current: OpenPoint, token: LineToken, starts: boolean): boolean {
  if (current.absorbing && current.labelOnly) return true;
  // A finding's own list of steps or causes, after its words end in a colon ("… you should also:").
  if (current.labelled && token.item !== null) {
    current.steps ||= current.parts.at(-1)?.trimEnd().endsWith(":") === true;
    if (current.steps) return true;
  }
  if (current.bullet) {
    if (token.item !== null) return false;
    if (token.indent >= 2) return true;
    return !starts && !current.blank && /^\p{Ll}/u.test(token.text);
  }
  if (starts) return false;
  return current.absorbing || /^\p{Ll}/u.test(token.text);
}

type LineToken = Extract<ReviewToken, { kind: "line" }>;

/** Headings replace the sections at their level and below; groups nest and close. */
function enter(
  sections: OpenSection[],
  token: Exclude<ReviewToken, { kind: "line" | "blank" | "break" | "record" }>,
): void {
  if (token.kind === "close") {
    const at = sections.findLastIndex((section) => section.depth >= GROUP_DEPTH);
    if (at >= 0) sections.splice(at);
    return;
  }
  const groups = sections.filter((section) => section.depth >= GROUP_DEPTH).length;
  const depth = token.kind === "heading" ? token.level : GROUP_DEPTH + groups;
  const kept = sections.filter(
    (section) =>
      section.depth < depth || (token.kind === "heading" && section.depth >= GROUP_DEPTH),
  );
  const section = sectionOf(token.text, token.kind === "heading");
  sections.splice(0, sections.length, ...kept, { ...section, depth });
}

/** Whether a line opens a point of its own rather than continuing one. */
function startsPoint(content: string, bullet: boolean, title: boolean): boolean {
  return (
    bullet ||
    title ||
    labelOf(content) !== null ||
    conventionalComment(content) !== null ||
    firstReference(content.split(/\s/, 1)[0] ?? "") !== null ||
    verdictOfLine(content) !== undefined
  );
}

/**
 * The points of a plain-text or markdown review, in the reviewer's order (see `reviewTokens`
 * for what is read as markdown). List items (with their indented continuations), labelled
 * findings (Conventional Comments, CodeRabbit's label lines, Gemini's badges, a severity word,
 * a bold title) with the paragraphs after them, lines that start with a `path:line`, and other
 * paragraphs are points. Headings, lead-ins ending with `:` and kept `<details>` groups are
 * not: they give the points below them their kind (praise and summaries are dropped, an
 * assessment keeps what asks for a change, a verdict heading only labelled or located findings), their level (`## Blocking`, `### 🟡 Minor`,
 * `Nits:`) and their file (`src/a.ts (2)`). A point's own label wins over its words' markers,
 * which win over its section's level, else `fallback`. Verdict lines, bots' counts and "no
 * issues found" are not points; an intro or outro paragraph that asks for nothing is dropped
 * when the review has other points.
 */
export function plainReviewPoints(text: string, fallback: Priority = "medium"): ReviewPoint[] {
  return tokenPoints(reviewTokens(text), fallback);
}

/** `plainReviewPoints` of a review already read into tokens. */
export function tokenPoints(tokens: readonly ReviewToken[], fallback: Priority): ReviewPoint[] {
  const candidates: Candidate[] = [];
  const sections: OpenSection[] = [];
  let current: OpenPoint | null = null;
  /** A lead-in waiting for what follows it. */
  let lead: OpenPoint | null = null;
  /** The section a settled lead-in opened, and whether a blank line passed under it. */
  let leadSection: OpenSection | null = null;
  let blankUnderLead = false;
  /**
   * The place a line that is only a place, a record or a header line gives the points after
   * it, until the next place or heading; a place line nothing followed is a point itself.
   */
  let place = null as PlaceState | null;
  /** Whether the last candidate is a header line that nothing has followed yet, and whether a record line followed it. */
  let headerLast = false;
  let headerRecord = false;
  /** Set after a page's `Comment on lines …`: the indented lines below it are the code commented on. */
  let excerpt = false;
  const openSections = (): OpenSection[] => [
    ...sections,
    ...(leadSection === null ? [] : [leadSection]),
    ...(place === null ? [] : [place.section]),
  ];
  const emit = (point: OpenPoint): void => {
    const candidate = candidateOf(point, fallback);
    headerLast = candidate?.header === true;
    headerRecord = false;
    if (candidate !== null) candidates.push(candidate);
  };
  const flush = (): void => {
    const point = current;
    current = null;
    if (point === null) return;
    const words = pointMessage(point.parts.join(" "));
    if (
      words.endsWith(":") &&
      !point.labelled &&
      firstReference(words) === null &&
      words.length <= 200
    ) {
      if (lead !== null) emit(lead);
      lead = point;
    } else {
      emit(point);
    }
  };
  /** A new place replaces the last; a place line nothing followed was a point after all. */
  const setPlace = (next: PlaceState | null): void => {
    if (place?.unused != null) candidates.push(place.unused);
    place = next;
  };
  /** A waiting lead-in heads what follows it, unless that is a list item beside it (then it was a point). */
  const settleLead = (bullet: boolean, indent: number): void => {
    if (lead === null) {
      if (leadSection !== null && blankUnderLead && !bullet && indent === 0) leadSection = null;
      return;
    }
    if (lead.bullet && bullet && indent <= lead.indent) {
      emit(lead);
    } else {
      leadSection = { ...sectionOf(pointMessage(lead.parts.join(" "))), depth: Infinity };
      blankUnderLead = false;
    }
    lead = null;
  };
  /** Ends the open point and lead-in; a lead-in right before a heading heads nothing, an intro. */
  const boundary = (heading: boolean): void => {
    flush();
    const intro = heading && lead !== null && firstPath(lead.parts.join(" ")) === null;
    if (lead !== null && !intro) emit(lead);
    lead = null;
    leadSection = null;
    setPlace(null);
    headerLast = false;
  };
  for (const token of tokens) {
    if (token.kind === "heading" || token.kind === "open" || token.kind === "close") {
      boundary(token.kind !== "close");
      enter(sections, token);
      continue;
    }
    if (token.kind === "break") {
      boundary(false);
      continue;
    }
    if (token.kind === "blank") {
      if (leadSection !== null) blankUnderLead = true;
      if (current !== null && !current.absorbing && !current.bullet) flush();
      else if (current !== null) current.blank = true;
      continue;
    }
    if (token.kind === "record") {
      flush();
      headerRecord = headerLast;
      const { path, line } = recordPlace(token.fields);
      if (path !== null && token.document) sections.push(placeSection(path, line, 0));
      else if (path !== null)
        setPlace({ section: placeSection(path, line, Infinity), unused: null });
      continue;
    }
    const content = token.item ?? token.text;
    const bullet = token.item !== null;
    if (excerpt && token.indent > 0 && !bullet) continue;
    excerpt = false;
    const commented = place === null ? undefined : COMMENT_ON_LINES.exec(content)?.[1];
    if (place !== null && commented !== undefined && !bullet) {
      flush();
      excerpt = true;
      const { path } = place.section;
      if (path !== null) {
        place = { section: placeSection(path, Number(commented), Infinity), unused: null };
      }
      continue;
    }
    const only = bullet || token.indent > 0 ? null : placeOnly(content);
    if (only !== null) {
      flush();
      settleLead(false, 0);
      const section = placeSection(only.path, only.line, Infinity);
      const self = {
        path: only.path,
        line: only.line,
        priority: fallback,
        message: content,
        label: null,
      };
      setPlace({ section, unused: { point: self, prose: false, header: false } });
      headerLast = false;
      continue;
    }
    if (current !== null && continues(current, token, startsPoint(content, bullet, token.title))) {
      current.parts.push(content);
      current.labelOnly &&= content.trim() === "";
      continue;
    }
    flush();
    settleLead(bullet, token.indent);
    const label = labelOf(content);
    const labelled = label !== null || conventionalComment(content) !== null;
    const header = candidates.at(-1);
    const titled = labelled || token.title || headerRecord;
    if (headerLast && header !== undefined && titled && firstReference(content) === null) {
      candidates.pop();
      const words = header.point.message;
      const reference = firstReference(words);
      const path = reference?.path ?? firstPath(words);
      const line = reference?.line ?? null;
      if (path !== null) setPlace({ section: placeSection(path, line, Infinity), unused: null });
    }
    headerLast = false;
    headerRecord = false;
    if (place !== null) place.unused = null;
    current = {
      parts: [label === null ? content : label.rest],
      bullet,
      indent: token.indent,
      absorbing: labelled || token.title,
      labelled,
      blank: false,
      labelOnly: label !== null && label.rest.trim() === "",
      steps: false,
      priority: label?.priority ?? null,
      line: label?.line ?? null,
      section: effectiveSection(openSections()),
    };
  }
  boundary(false);
  const findings = candidates.filter((candidate) => !candidate.prose);
  return (findings.length > 0 ? findings : candidates).map((candidate) => candidate.point);
}
