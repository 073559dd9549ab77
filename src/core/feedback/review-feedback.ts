import { stripAnsi } from "./clean/ansi.js";
import { codePointLength } from "./clean/code-points.js";
import { cutWords } from "./clean/cut-words.js";
import type { Feedback, Priority } from "./feedback.js";
import { fitFeedback, type FittedFeedback, type ItemForms } from "./fit/fit-feedback.js";
import { itemPathNames, shortPathNames } from "./fit/path-names.js";
import type { ReviewVerdict } from "./review/github-review.js";
import { conventionalComment } from "./review/conventional-comment.js";
import { byPriority, reviewPointParts, type ReviewPoint } from "./review/review-point.js";
import { readReview } from "./review/review-points-of.js";

/** Points that get an item, at most; the last item counts the rest. */
const MAX_ITEMS = 20;
/** Points an item is chosen among, the most urgent first: a run of 50,000 findings is not measured whole. */
const MAX_CANDIDATES = MAX_ITEMS * 5;
/**
 * Lengths of a point's words in its briefer forms, in code points; the last form is whole. The
 * steps are small because the room left once every point has its briefest form is mostly less
 * than 50 code points: a step it can pay for spends it.
 */
const FORM_LENGTHS = [40, 60, 90, 130, 180];
/** Shortest cut of a tool's rule's words: the rule says what the point is about, a shorter cut no more. */
const MIN_RULE_CUT = 90;
/** Longest first sentence given a form of its own: the finding, before its explanation. */
const MAX_SENTENCE_LENGTH = 160;

/** Summary of a rejection that came without a word. */
export const EMPTY_REVIEW_SUMMARY = "Review rejected without comments";

/** How many points of each priority, the levels a review has: `2 high, 5 low`. */
function countsOf(points: readonly ReviewPoint[]): string {
  const levels: readonly Priority[] = ["high", "medium", "low"];
  return levels
    .map((level) => [level, points.filter((point) => point.priority === level).length] as const)
    .filter(([, count]) => count > 0)
    .map(([level, count]) => `${count} ${level}`)
    .join(", ");
}

/** The words up to the end of their first sentence, or null when they are one sentence. */
function firstSentence(words: string): string | null {
  const end = /[.!?;](?=\s+\S)/.exec(words);
  if (end === null) return null;
  const sentence = words.slice(0, end.index + 1);
  return codePointLength(sentence) <= MAX_SENTENCE_LENGTH ? sentence : null;
}

/**
 * A point's item from brief to whole, as test failures have: its place leads every form —
 * its file as `itemPathNames` writes it (`…:line` when the item above is about the same file) —
 * then a tool's rule alone, then its words cut to 40 and 60 (only without a tool's rule), 90,
 * 130 and 180 code points (at a word's end) and its first sentence, shortest first, then whole.
 * A Conventional Comments label (`issue (security)`) names no fault: only the whole form has it.
 * Fitting names every point's place before any point gets more words.
 */
function itemForms(point: ReviewPoint, name: string | null, repeats: Repeats): ItemForms {
  const { location, words, said: message } = reviewPointParts(point);
  const place =
    location === null || point.path === null || name === null
      ? location
      : `${name}${location.slice(point.path.length)}`;
  const also = (repeats.get(point) ?? []).map((line) => `, :${line}`).join("");
  const at = place === null ? "" : `${place}${also} `;
  // A tool's rule names what is wrong; a Conventional Comments label (`suggestion`) does not.
  const rule = point.label !== null && conventionalComment(`${point.label}:`) === null;
  const label = rule ? [`${at}${point.label}`] : [];
  const said = rule ? words : message;
  const sentence = firstSentence(said);
  const lengths = rule ? FORM_LENGTHS.filter((length) => length >= MIN_RULE_CUT) : FORM_LENGTHS;
  const cuts = [
    ...lengths
      .filter((length) => codePointLength(said) > length)
      .map((length) => cutWords(said, length)),
    ...(sentence === null ? [] : [sentence]),
  ].sort((a, b) => codePointLength(a) - codePointLength(b));
  return [...new Set([...label, ...cuts.map((cut) => `${at}${cut}`), `${at}${words}`])];
}

/** The further lines of a point said once for several (see `withRepeatsMerged`). */
type Repeats = ReadonlyMap<ReviewPoint, readonly number[]>;

/**
 * The points with each file's repeats said once: a point with the same words and priority as
 * an earlier one in the same file (a linter's finding down a file, `B905: zip() without …` at
 * three lines) adds its line to that one's (`src/a.py:714, :720, :759 B905: …`).
 */
function withRepeatsMerged(points: readonly ReviewPoint[]): {
  points: ReviewPoint[];
  repeats: Repeats;
} {
  const first = new Map<string, ReviewPoint>();
  const repeats = new Map<ReviewPoint, number[]>();
  const kept = points.filter((point) => {
    if (point.path === null || point.line === null) return true;
    const key = JSON.stringify([point.path, point.priority, reviewPointParts(point).words]);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, point);
      return true;
    }
    repeats.set(earlier, [...(repeats.get(earlier) ?? []), point.line]);
    return false;
  });
  return { points: kept, repeats };
}

/** How many of the review's points `shown` says: each with its repeats. */
function pointsSaid(shown: readonly ReviewPoint[], repeats: Repeats): number {
  return shown.reduce((sum, point) => sum + 1 + (repeats.get(point)?.length ?? 0), 0);
}

/** `+N more points`, for the points the items leave out. */
function morePoints(count: number): string {
  return `+${count} more ${count === 1 ? "point" : "points"}`;
}

/**
 * The `count` points the items show, in their order: every point more urgent than the
 * `count`th, then of the points of its priority the ones with the briefest forms (`briefest`,
 * their lengths) — within one priority a reviewer's order is no ranking (CodeRabbit posts by
 * file), so a long path does not take the room of two shorter points.
 */
function shownPoints(
  points: readonly ReviewPoint[],
  count: number,
  briefest: readonly number[],
): ReviewPoint[] {
  const level = points[count - 1]?.priority;
  const urgent = points.findIndex((point) => point.priority === level);
  const chosen = new Set(
    points
      .map((point, index) => ({ point, index }))
      .filter(({ point }) => point.priority === level)
      .sort((a, b) => (briefest[a.index] ?? 0) - (briefest[b.index] ?? 0) || a.index - b.index)
      .slice(0, count - urgent)
      .map(({ index }) => index),
  );
  return points.filter((_, index) => index < urgent || chosen.has(index));
}

/**
 * Points of each priority grouped by file, files in the order of their first point but for the
 * file the priority above ended with, which goes first: a file's points follow each other, so
 * each after the first writes its place `…:line`, across a change of priority too.
 */
function groupedByFile(points: readonly ReviewPoint[]): ReviewPoint[] {
  const grouped: ReviewPoint[] = [];
  for (const level of ["high", "medium", "low"] as const) {
    const ofLevel = points.filter((point) => point.priority === level);
    const carried = grouped.at(-1)?.path ?? null;
    const files = [...new Set(ofLevel.map((point, index) => point.path ?? `#${index}`))].sort(
      (a, b) => Number(b === carried) - Number(a === carried),
    );
    for (const file of files) {
      grouped.push(...ofLevel.filter((point, index) => (point.path ?? `#${index}`) === file));
    }
  }
  return grouped;
}

/** Code points in all items together. */
function totalLength(items: readonly string[]): number {
  return items.reduce((sum, item) => sum + codePointLength(item), 0);
}

/**
 * One form of each item, their briefest forms plus `left` code points: the cheapest next form
 * of any item is taken, again and again, while it fits. A review's points are peers — the first
 * is not the failure the others follow from, as a test run's may be — so the room goes to the
 * words that cost least, a finding's first sentence before one point's whole explanation.
 */
function spentForms(items: readonly ItemForms[], left: number): string[] {
  const chosen = items.map(() => 0);
  let room = left;
  for (;;) {
    let cheapest: { index: number; cost: number } | null = null;
    items.forEach((forms, index) => {
      const at = chosen[index] ?? 0;
      const next = forms[at + 1];
      if (next === undefined) return;
      const cost = codePointLength(next) - codePointLength(forms[at] ?? "");
      const better =
        cheapest === null ||
        at < (chosen[cheapest.index] ?? 0) ||
        (at === (chosen[cheapest.index] ?? 0) && cost < cheapest.cost);
      if (cost <= room && better) cheapest = { index, cost };
    });
    if (cheapest === null) break;
    const { index, cost } = cheapest;
    chosen[index] = (chosen[index] ?? 0) + 1;
    room -= cost;
  }
  return items.map((forms, index) => forms[chosen[index] ?? 0] ?? "");
}

/**
 * The items fitted to the room the summary leaves: as many points as can each keep at least
 * their briefest form (place, label and their first words), the most urgent first (see
 * `shownPoints`), the rest counted in a last item (`+3 more points`) whose room is reserved
 * first — a point cut down to half a path says nothing, a count says how much is left. When not
 * even one point's briefest form fits, the first point is cut to the room.
 */
function fittedItems(
  summary: string,
  all: readonly ReviewPoint[],
  maxLength: number,
): FittedFeedback {
  const { points, repeats } = withRepeatsMerged(all);
  const candidates = points.slice(0, MAX_CANDIDATES);
  const briefest = candidates.map((point) =>
    codePointLength(itemForms(point, point.path, repeats)[0] ?? ""),
  );
  const short = shortPathNames(all.flatMap((point) => (point.path === null ? [] : [point.path])));
  for (let shown = Math.min(points.length, MAX_ITEMS); shown >= 1; shown -= 1) {
    const chosen = groupedByFile(shownPoints(candidates, shown, briefest));
    const names = itemPathNames(
      chosen.map((point) => point.path),
      short,
    );
    const forms = chosen.map((point, index) => itemForms(point, names[index] ?? null, repeats));
    const rest = all.length - pointsSaid(chosen, repeats);
    const room = maxLength - (rest > 0 ? codePointLength(morePoints(rest)) : 0);
    const left = room - codePointLength(summary) - totalLength(forms.map((item) => item[0] ?? ""));
    if (left >= 0) {
      const items = spentForms(forms, left);
      return { summary, actionableItems: rest > 0 ? [...items, morePoints(rest)] : items };
    }
  }
  return fitFeedback(
    summary,
    points.slice(0, 1).map((point) => itemForms(point, point.path, repeats)),
    maxLength,
  );
}

/**
 * The feedback's priority: a review that requests changes is high; otherwise its most urgent
 * point's; a review with nothing to act on is low, and an empty one medium (a rejection
 * without a word still asks for something).
 */
function reviewPriority(
  points: readonly ReviewPoint[],
  verdict: ReviewVerdict | undefined,
  empty: boolean,
): Priority {
  if (verdict === "reject") return "high";
  return points[0]?.priority ?? (empty ? "medium" : "low");
}

/**
 * Focused feedback from a review (SPEC §3, §4), whatever its format (see `reviewPointsOf`):
 * one item per point — `path:line label: words`, from brief to whole forms fitted to
 * `maxLength` the way test failures are — high priority first, the reviewer's order within a
 * priority, `+N more points` when not all fit. The summary says what the items do not: the
 * verdict and how many points of each priority (`Review rejected: 7 points (2 high, 5 low)`);
 * a review that states its approval says `Review approved`.
 */
export function reviewFeedback(text: string, options: { readonly maxLength: number }): Feedback {
  const review = readReview(text);
  const points = byPriority(review.points);
  const { verdict } = review;
  const empty = stripAnsi(text).trim() === "";
  const priority = reviewPriority(points, verdict, empty);
  const stated = verdict === "approve" ? "Review approved" : "Review rejected";
  if (points.length === 0) {
    const summary = empty ? EMPTY_REVIEW_SUMMARY : `${stated}: no points to act on`;
    return { ...fitFeedback(summary, [], options.maxLength), priority };
  }
  const count = `${points.length} ${points.length === 1 ? "point" : "points"}`;
  const summary = `${stated}: ${count} (${countsOf(points)})`;
  return { ...fittedItems(summary, points, options.maxLength), priority };
}
