import { truncateCodePoints } from "../clean/code-points.js";
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

/**
 * A point's item in two parts: its place (`path:line`, or the `path:line:col` its message
 * starts with, as a linter prints it) and its words (`label: message` without that place). The
 * place leads every form of the item, so no cut can take it.
 */
export function reviewPointParts(point: ReviewPoint): { location: string | null; words: string } {
  const labelled = (message: string): string =>
    point.label === null ? message : `${point.label}: ${message}`;
  if (point.path === null) return { location: null, words: labelled(point.message) };
  const location = point.line === null ? point.path : `${point.path}:${point.line}`;
  const lead = point.message.startsWith(location) ? (/^\S+/.exec(point.message)?.[0] ?? "") : "";
  const leadPlace = lead.replace(/:$/, "");
  if (lead !== "" && /^(?::\d+)*$/.test(leadPlace.slice(location.length))) {
    return { location: leadPlace, words: labelled(wordsAfter(point.message.slice(lead.length))) };
  }
  const words = withoutPlace(point.message, point.path, point.line);
  return { location, words: labelled(wordsAfter(words)) };
}

/** Words with the punctuation that joined them to a place cut: `— refresh token …` → `refresh token …`. */
function wordsAfter(text: string): string {
  return text.replace(/^[\s—–:-]+/, "").trim();
}

/**
 * A message without the place its item already leads with, where the words only label
 * themselves with it: `Description section (.github/T.md:2):` → `Description section:`,
 * `1. src/a.ts:61 — token logged` → `token logged`, `a.py line 57: …` → `…`, `Null check
 * missing in a.ts:10` → `Null check missing`. A place inside a sentence stays.
 */
function withoutPlace(message: string, path: string, line: number | null): string {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const place =
    line === null
      ? String.raw`${escaped}(?::\d+)*`
      : String.raw`${escaped}(?::${line}(?::\d+)*|,?\s+(?:at\s+)?line\s+${line}\b)`;
  return message
    .replace(new RegExp(String.raw`\s*\(${place}\)`), "")
    .replace(new RegExp(String.raw`^(?:\d{1,3}[.)]\s*)?\W{0,4}${place}`), "")
    .replace(new RegExp(String.raw`[,;]?\s+(?:(?:in|at|see)\s+)?${place}\.?$`), "");
}

/** `path:line label: message`: the point's item whole (see `reviewPointParts`). */
export function reviewPointText(point: ReviewPoint): string {
  const { location, words } = reviewPointParts(point);
  return location === null ? words : `${location} ${words}`;
}

/** Points ordered high priority first, keeping the reviewer's order within a priority. */
export function byPriority(points: readonly ReviewPoint[]): ReviewPoint[] {
  return [...points].sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority]);
}
