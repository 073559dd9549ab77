import type { ReviewVerdict } from "./github-review.js";
import type { ReviewToken } from "./review-markdown.js";

/**
 * A line that states the review's verdict under a name: `Verdict: Request changes`, `Final
 * Recommendation: APPROVE`, `Status: Approved`, `Decision — Approve`, `Review status: changes
 * requested`. What follows the name decides.
 */
const NAMED_VERDICT =
  /^(?:(?:final|overall|review)\s+)?(?:verdict|recommendation|decision|status|conclusion|outcome|result)\s*[-:–—]\s*(\S.*)$/i;
/** A value (or a whole line) that approves; `approve once …` is a condition, not a verdict. */
const APPROVES =
  /^(?:approved?|approval|lgtm|looks good(?: to me)?|ship it|accept(?:ed)?|ready to merge|ok to merge)(?: with (?:nits?|minor (?:comments|suggestions|nits)|comments|suggestions))?$/i;
/** A value (or a whole line) that rejects. */
const REJECTS =
  /^(?:request(?:ing|ed)? changes|changes requested|reject(?:ed)?|needs? (?:work|changes|fixes)|not approved|not ready(?: to merge)?|do not merge|don't merge|blocked)$/i;
/** A whole line that only thanks alongside an approval: `LGTM, thanks!`. */
const THANKS_APPROVAL = /^(?:lgtm|looks good(?: to me)?|ship it),? (?:thanks|thank you|cheers)$/i;

/**
 * A whole approval line that addresses its author: `Looks good Rachael`, `LGTM @octocat`. The
 * name is capitalised or an @handle, so `Looks good but` is no verdict.
 */
const ADDRESSED_APPROVAL = /^(?:lgtm|looks good(?: to me)?|ship it),? (@?[\p{L}\d][\p{L}\d_-]*)$/iu;

/** Whether `word` is a person's name or handle: `@octocat`, `Rachael`. */
const isAddressee = (word: string): boolean => word.startsWith("@") || /^\p{Lu}\p{Ll}/u.test(word);

/** Words without which no line states a verdict: a cheap test before the full reading. */
const VERDICT_WORDS =
  /verdict|recommend|decision|status|conclusion|outcome|result|approv|lgtm|looks good|ship it|accept|ready|ok to|request|changes|reject|need|not|merge|blocked/i;

/** Whether a character is a letter or a digit. */
const isWord = (character: string): boolean => /[\p{L}\p{N}]/u.test(character);

/**
 * `text` without the list marker, emoji, bold and punctuation around its words, spaces
 * collapsed: `#### ✅ **APPROVE** ✅` → `APPROVE`.
 */
function trimmed(text: string): string {
  const characters = Array.from(
    text.replace(/^(?:[-*+]\s+|\d{1,3}[.)]\s+)/, "").replace(/\*\*|`/g, ""),
  );
  let start = 0;
  let end = characters.length;
  while (start < end && !isWord(characters[start] ?? "")) start += 1;
  while (end > start && !isWord(characters[end - 1] ?? "")) end -= 1;
  return characters.slice(start, end).join("").replace(/\s+/g, " ");
}

/** The verdict a value or a whole line states, if any; what follows a dash (`— fix (1) first`) is its reason. */
function verdictOfValue(value: string): ReviewVerdict | undefined {
  const [head = ""] = value.split(/\s[-–—]\s/, 1);
  const words = trimmed(head);
  if (APPROVES.test(words) || THANKS_APPROVAL.test(words)) return "approve";
  const addressee = ADDRESSED_APPROVAL.exec(words)?.[1];
  if (addressee !== undefined && isAddressee(addressee)) return "approve";
  if (REJECTS.test(words)) return "reject";
  return undefined;
}

/**
 * The verdict a line states by itself: a named verdict (`**Verdict: Request changes** — …`,
 * `## VERDICT: REQUEST CHANGES`, `Final Recommendation: APPROVE ✅`) or a line that is only one
 * (`Approved.`, `Changes requested.`, `LGTM, thanks!`). A finding's words never count: the line
 * must start with the verdict, and a condition (`approve once X is fixed`) states none.
 */
export function verdictOfLine(line: string): ReviewVerdict | undefined {
  if (line.length > 400 || !VERDICT_WORDS.test(line)) return undefined;
  const words = trimmed(line);
  const named = NAMED_VERDICT.exec(words)?.[1];
  return verdictOfValue(named ?? words);
}

/** The verdict the first verdict line or heading among a text review's tokens states (see `textVerdict` in review-status-of.ts). */
export function tokensVerdict(tokens: readonly ReviewToken[]): ReviewVerdict | undefined {
  for (const token of tokens) {
    if (token.kind !== "heading" && token.kind !== "line") continue;
    const verdict = verdictOfLine(token.text);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}
