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
 * starts with, as a linter prints it) and its words (`label: message` without that place), and
 * those words without the label (`said`). The place leads every form of the item, so no cut
 * can take it.
 */
export function reviewPointParts(point: ReviewPoint): {
  location: string | null;
  words: string;
  said: string;
} {
  const parts = (location: string | null, said: string) => ({
    location,
    words: point.label === null ? said : `${point.label}: ${said}`,
    said,
  });
  if (point.path === null) return parts(null, point.message);
  const location = point.line === null ? point.path : `${point.path}:${point.line}`;
  const lead = point.message.startsWith(location) ? (/^\S+/.exec(point.message)?.[0] ?? "") : "";
  const leadPlace = lead.replace(/:$/, "");
  if (lead !== "" && /^(?::\d+)*$/.test(leadPlace.slice(location.length))) {
    return parts(leadPlace, wordsAfter(point.message.slice(lead.length)));
  }
  return parts(location, wordsAfter(withoutPlace(point.message, point.path, point.line)));
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
  return withoutTrailingPlace(
    withoutLeadingPlace(withoutParenthesizedPlace(message, path, line), path, line),
    path,
    line,
  );
}

/** A line number's digits or suffix after a path: `:57`, `:57:3`, `, line 57`; none when no line is known. */
const COLON_LINE = /^:(\d+)(?::\d+)*/;
const WORD_LINE = /^,?\s+(?:at\s+)?line\s+(\d+)\b/;
const ANY_COLONS = /^(?::\d+)*/;

/** Where the place starting at `at` (its path there) ends in `text`, or -1 when it is another place. */
function placeEnd(text: string, at: number, path: string, line: number | null): number {
  if (!text.startsWith(path, at)) return -1;
  const rest = text.slice(at + path.length);
  if (line === null) return at + path.length + (ANY_COLONS.exec(rest)?.[0].length ?? 0);
  const suffix = COLON_LINE.exec(rest) ?? WORD_LINE.exec(rest);
  return suffix !== null && Number(suffix[1]) === line ? at + path.length + suffix[0].length : -1;
}

/** `… (path:line) …` without the parenthesized place and the spaces before it. */
function withoutParenthesizedPlace(message: string, path: string, line: number | null): string {
  for (let at = message.indexOf(`(${path}`); at >= 0; at = message.indexOf(`(${path}`, at + 1)) {
    const end = placeEnd(message, at + 1, path, line);
    if (end >= 0 && message[end] === ")") {
      return message.slice(0, at).trimEnd() + message.slice(end + 1);
    }
  }
  return message;
}

/** What may precede a leading place: a number (`1.`) and a few marks (`**`, `` ` ``, `[`). */
const LEADING_MARKS = /^(?:\d{1,3}[.)]\s*)?\W{0,4}/;

/** `1. path:line — words` without the numbered place. */
function withoutLeadingPlace(message: string, path: string, line: number | null): string {
  const marks = LEADING_MARKS.exec(message)?.[0].length ?? 0;
  for (let at = marks; at >= 0; at -= 1) {
    const end = placeEnd(message, at, path, line);
    if (end >= 0) return message.slice(end);
  }
  return message;
}

/** Words that may join closing words to a place: `… in path:line`. */
const JOINING_WORDS = [" in", " at", " see"];

/** `words, in path:line.` without the closing place and what joins it to the words. */
function withoutTrailingPlace(message: string, path: string, line: number | null): string {
  const at = message.lastIndexOf(path);
  if (at <= 0) return message;
  const end = placeEnd(message, at, path, line);
  const after = end < 0 ? null : message.slice(end);
  const before = message.slice(0, at);
  let head = before.trimEnd();
  if ((after !== "" && after !== ".") || head.length === before.length) return message;
  const word = JOINING_WORDS.find((joint) => head.endsWith(joint));
  if (word !== undefined) head = head.slice(0, -word.length).trimEnd();
  return head.endsWith(",") || head.endsWith(";") ? head.slice(0, -1) : head;
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
