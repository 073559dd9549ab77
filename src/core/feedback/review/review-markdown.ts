import { cutLine } from "../clean/log-lines.js";
import { firstReference, looksLikePath } from "./path-reference.js";
import { frontMatter, recordLineFields, type RecordField } from "./review-records.js";
import { levelOf } from "./severity.js";
import { verdictOfLine } from "./verdict-line.js";

/**
 * A review read as markdown, as the points parser sees it: headings, the groups of kept
 * `<details>` (CodeRabbit's "🧹 Nitpick comments (2)" and its per-file groups), blank lines and
 * text lines with their markup read. `title` marks a line that is bold throughout
 * (`**Redundant enumeration.**`), the way bots and LLMs title a finding.
 */
export type ReviewToken =
  | { readonly kind: "heading"; readonly level: number; readonly text: string }
  | { readonly kind: "open"; readonly text: string }
  | { readonly kind: "close" }
  | { readonly kind: "blank" }
  /** A thematic break (`---`, `***`): the comment before it ends, as exports separate comments. */
  | { readonly kind: "break" }
  /** Facts about a comment, not in it: front matter (`document`) or a record line (`State: null | Created: …`). */
  | { readonly kind: "record"; readonly fields: readonly RecordField[]; readonly document: boolean }
  | {
      readonly kind: "line";
      readonly text: string;
      readonly indent: number;
      readonly title: boolean;
      /** A list item's content (`- x`, `1. x`), or null for a line that is not one. */
      readonly item: string | null;
    };

/**
 * `<details>` summaries whose content is findings: CodeRabbit's nitpick, outside-diff, duplicate
 * and per-severity groups (`🟡 Minor comments (5)`), any `… comments (N)` or `issues (N)`
 * count, a summary that names review comments or feedback (Gemini's "Click here to see my
 * feedback" when it could not post its comments inline). Every other collapsible (analysis chains, agent prompts, proposed fixes, committable
 * suggestions, review info, walkthroughs, references, tips) holds no finding and is dropped.
 */
const FINDINGS_GROUP =
  /\b(?:nitpicks?|outside diff|actionable|potential issues?|review comments|feedback|(?:comments?|issues?|findings?|suggestions?)\s*\(\d+\))/i;
/** A per-file group: `src/a.ts (2)`. */
const FILE_GROUP = /^(\S+)\s*\(\d+\)$/;
/** GitHub alerts that hold tool chatter, not findings (`> [!NOTE] Reviews paused`). */
const QUIET_ALERT = /^\[!(?:NOTE|TIP)\]/i;
/** Markdown emoji shortcodes bots write for severity marks. */
const SHORTCODES: ReadonlyMap<string, string> = new Map([
  [":warning:", "⚠️"],
  [":x:", "❌"],
  [":rotating_light:", "🚨"],
  [":no_entry:", "⛔"],
  [":red_circle:", "🔴"],
  [":broom:", "🧹"],
  [":bulb:", "💡"],
  [":white_check_mark:", "✅"],
  [":heavy_check_mark:", "✅"],
  [":no_entry_sign:", "🚫"],
  [":information_source:", "ℹ️"],
]);

/** Longest link text and target read: longer, the brackets are not a link. */
const MAX_LINK_TEXT = 400;
const MAX_LINK_TARGET = 2200;
/** A link's target: `url` or `url "title"`. */
const LINK_TARGET = /^\S*(?:\s+["'][^"']*["'])?$/;

/** An image's alt text that is a level (`medium`, `P1 Badge`). */
const BADGE_ALT = /^(critical|high|medium|low|P[0-3])(?: badge)?$/i;

/** An image as text: `[P1]` when its alt is a level (see `BADGE_ALT`), else nothing. */
function badgeOf(alt: string): string {
  const badge = BADGE_ALT.exec(alt.trim())?.[1];
  return badge === undefined ? "" : `[${badge}]`;
}

/** A tag as text: an `<img alt="P1">` badge (Greptile's) as `[P1]`, any other tag a space. */
function tagAsText(tag: string): string {
  if (!/^<img\b/i.test(tag)) return " ";
  const alt = /\balt\s*=\s*["']([^"']{1,40})["']/i.exec(tag)?.[1];
  const badge = alt === undefined ? "" : badgeOf(alt);
  return badge === "" ? " " : ` ${badge} `;
}

/**
 * `line` with its inline images (`images`) or links read as text: `![alt](url)` becomes
 * `[alt]` when the alt is a level (Gemini's `![medium]` badge, Codex's `![P1 Badge]` as `[P1]`),
 * else nothing; `[text](url)`
 * becomes `text`. Scanned once, each look bounded, so brackets that never close cost nothing.
 */
function withoutLinks(line: string, images: boolean): string {
  let result = "";
  let at = 0;
  for (;;) {
    const open = line.indexOf("](", at);
    if (open < 0) return result + line.slice(at);
    const from = Math.max(at, open - MAX_LINK_TEXT);
    const start = line.slice(from, open).lastIndexOf("[") + from;
    const end = line.slice(open + 2, open + 2 + MAX_LINK_TARGET).indexOf(")") + open + 2;
    const image = start > at && line[start - 1] === "!";
    const target = line.slice(open + 2, end);
    if (start < from || end < open + 2 || image !== images || !LINK_TARGET.test(target)) {
      result += line.slice(at, open + 2);
      at = open + 2;
      continue;
    }
    const text = line.slice(start + 1, open);
    const kept = !images ? text : badgeOf(text);
    result += line.slice(at, images ? start - 1 : start) + kept;
    at = end + 1;
  }
}

/** A field that is only a severity: `major`, `HIGH`, `nit`. */
const LEVEL_FIELD =
  /^(?:critical|blocker|high|major|medium|minor|low|trivial|nit(?:pick)?|error|warning|info)$/i;

/**
 * A finding record inside a code block, as review agents print their machine-readable list
 * (`FINDINGS:` then `major|The resolver lets …|scripts/agent.sh:675`): `|`-separated fields, one
 * only a severity, one only a `path:line`, the longest of the rest the words. Read as
 * a list item `- major: words (path:line)`; null for any other code line.
 */
function findingRecord(line: string): string | null {
  if (!line.includes("|")) return null;
  const fields = line.split("|").map((field) => field.trim());
  if (fields.length < 3 || fields.length > 6) return null;
  const level = fields.find((field) => LEVEL_FIELD.test(field));
  const place = fields.find((field) => !/\s/.test(field) && firstReference(field) !== null);
  if (level === undefined || place === undefined || levelOf(level) === null) return null;
  const words = fields
    .filter((field) => field !== level && field !== place)
    .reduce((longest, field) => (field.length > longest.length ? field : longest), "");
  return words === "" ? null : `${level}: ${words} (${place})`;
}

/** Whether a `<details>` with this summary holds findings. */
function keepsGroup(summary: string): boolean {
  const file = FILE_GROUP.exec(summary)?.[1];
  return FINDINGS_GROUP.test(summary) || (file !== undefined && looksLikePath(file));
}

/**
 * `text` without the regions bots mark as generated (`<!-- walkthrough_start -->` … `_end -->`,
 * `<!-- internal state start -->` …; an unterminated one runs to the end) and without any other
 * HTML comment.
 */
function withoutComments(text: string): string {
  let result = "";
  let at = 0;
  for (;;) {
    const open = text.indexOf("<!--", at);
    if (open < 0) return result + text.slice(at);
    result += text.slice(at, open);
    const close = text.indexOf("-->", open + 4);
    if (close < 0) return result;
    const inner = text.slice(open + 4, close).trim();
    at = close + 3;
    const region = /^([\w -]{1,80}?)[ _]start$/i.exec(inner)?.[1];
    if (region === undefined) continue;
    const end = [`${region}_end`, `${region} end`]
      .map((marker) => text.indexOf(marker, at))
      .filter((index) => index >= 0);
    if (end.length === 0) return result;
    const after = text.indexOf("-->", Math.min(...end));
    if (after < 0) return result;
    at = after + 3;
  }
}

/** Tags dropped, entities read, whitespace collapsed: an HTML fragment's text. */
function tagText(html: string): string {
  if (!html.includes("<") && !html.includes("&")) return html.trim();
  return html
    .replace(/<\/?[a-z][^<>]{0,400}>/gi, tagAsText)
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * HTML table rows on one line each, so a row is one point (Danger's warning table): a header
 * row becomes a heading, a body row a bullet. `<br>` breaks a line.
 */
function withTableRows(text: string): string {
  if (!/<tr\b/i.test(text)) return text.replace(/<br\s*\/?>/gi, "\n");
  const lower = text.toLowerCase();
  let result = "";
  let at = 0;
  for (;;) {
    const open = lower.indexOf("<tr", at);
    const close = open < 0 ? -1 : lower.indexOf("</tr>", open);
    if (close < 0) return (result + text.slice(at)).replace(/<br\s*\/?>/gi, "\n");
    const row = text.slice(open, close);
    const cells = tagText(row);
    result += `${text.slice(at, open)}\n${lower.slice(open, close).includes("<th") ? "#### " : "- "}${cells}\n`;
    at = close + 5;
  }
}

/** Inline markdown read as text: images (a badge's level kept as `[medium]`), links, bold, code spans, shortcodes. */
function inlineText(line: string): string {
  let text = line.includes("](") ? withoutLinks(withoutLinks(line, true), false) : line;
  if (text.includes("*") || text.includes("`")) text = text.replace(/\*\*|`/g, "");
  if (text.includes(":"))
    for (const [code, emoji] of SHORTCODES) text = text.replaceAll(code, emoji);
  return (text.includes("  ") ? text.replace(/ {2,}/g, " ") : text).trim();
}

/** The `<summary>` text of a `<details>` starting at `lines[index]`, read from it and the next lines. */
function summaryAt(lines: readonly string[], index: number): { text: string; end: number } {
  for (let next = index; next < Math.min(lines.length, index + 3); next += 1) {
    const match = /<summary[^>]{0,200}>(.{0,400}?)<\/summary>/i.exec(lines[next] ?? "");
    if (match !== null) return { text: inlineText(tagText(match[1] ?? "")), end: next };
  }
  return { text: "", end: index };
}

/** A line with its blockquote markers removed, and how deep it was quoted. */
function unquoted(line: string): { text: string; quoted: boolean } {
  const match = /^\s{0,3}(?:>\s?)+/.exec(line);
  return match === null
    ? { text: line, quoted: false }
    : { text: line.slice(match[0].length), quoted: true };
}

/**
 * Whether a line opens (or closes) a fenced code block, and with which fence. A fence may be
 * indented under a list item; a tilde run far to the right is a compiler's underline
 * (`~~~~` under an identifier in tsc's code frames), not a fence.
 */
export function fenceOf(line: string): string | null {
  return /^ {0,6}(`{3,})/.exec(line)?.[1] ?? /^ {0,3}(~{3,})/.exec(line)?.[1] ?? null;
}

/**
 * The tokens of a review read as GitHub-flavoured markdown. Code excerpts — fenced blocks
 * (`diff`, `suggestion`, a fence left open runs to the end) but for the finding records in
 * them (see `findingRecord`), tables, HTML comments and marked
 * bot regions — are dropped, as are `<details>` that hold no finding, `[!NOTE]`/`[!TIP]`
 * alerts, `<sub>` footers, "Generated by" lines and done checklist items (`- [x]`).
 * Blockquote markers are removed; HTML tags leave their text. With `headingsAsTitles`, a heading
 * reads as a bold title (a comment that is one finding, whose heading is its title).
 */
export function reviewTokens(
  text: string,
  options: { readonly headingsAsTitles?: boolean } = {},
): ReviewToken[] {
  const lines = withTableRows(withoutComments(text)).split("\n").map(cutLine);
  const tokens: ReviewToken[] = [];
  const groups: boolean[] = [];
  const front = frontMatter(lines);
  if (front !== null) tokens.push({ kind: "record", fields: front.fields, document: true });
  let fence: string | null = null;
  /** A fence around a comment's own words (an export's), read as markdown until it closes. */
  let proseFence: string | null = null;
  /** The closing tag of a code element being skipped (`</code_context>`). */
  let codeTag: string | null = null;
  let hunk = false;
  let dropDepth = 0;
  let quietAlert = false;
  const wholeAlert = isWholeAlert(lines.slice(front?.lines ?? 0));
  for (let index = front?.lines ?? 0; index < lines.length; index += 1) {
    const raw = lines[index] ?? "";
    if (codeTag !== null) {
      if (raw.toLowerCase().includes(codeTag)) codeTag = null;
      continue;
    }
    if (hunk) {
      // A hunk's lines start with ` `, `+`, `-` (or git's `\ No newline`); a rule of dashes ends it.
      if (/^(?:[ +-]|\\ )/.test(raw) && !/^-{3,}\s*$/.test(raw)) continue;
      hunk = false;
    }
    if (fence !== null) {
      const closing = fenceOf(raw);
      if (closing !== null && closing.startsWith(fence) && raw.trim() === closing) fence = null;
      const record = findingRecord(raw);
      if (record !== null) tokens.push(...lineTokens(`- ${record}`), { kind: "blank" });
      continue;
    }
    const opens = (raw.match(/<details\b/gi) ?? []).length;
    const closes = (raw.match(/<\/details>/gi) ?? []).length;
    if (dropDepth > 0) {
      dropDepth += opens - closes;
      continue;
    }
    let line = raw;
    if (opens > 0) {
      const summary = summaryAt(lines, index);
      if (!keepsGroup(summary.text)) {
        dropDepth = opens - closes;
        index = dropDepth > 0 ? summary.end : index;
        if (dropDepth > 0) continue;
      } else {
        tokens.push({ kind: "open", text: summary.text });
        groups.push(true);
        const rest = lines[summary.end] ?? "";
        index = summary.end;
        line = rest.slice(rest.search(/<\/summary>/i) + "</summary>".length);
      }
    }
    for (let close = 0; close < closes && groups.length > 0; close += 1) {
      groups.pop();
      tokens.push({ kind: "close" });
    }
    const { text: body, quoted } = unquoted(line.replace(/<\/?(?:details|blockquote)>/gi, ""));
    if (quoted && QUIET_ALERT.test(body.trim()) && !wholeAlert) {
      quietAlert = true;
      continue;
    }
    if (quietAlert && quoted) continue;
    quietAlert = false;
    const opened = fenceOf(body);
    if (opened !== null && proseFence !== null && body.trim() === proseFence) {
      proseFence = null;
      tokens.push({ kind: "blank" });
      continue;
    }
    if (opened !== null) {
      if (body.trim() === opened && isCommentStart(lines.slice(index + 1, index + 3))) {
        proseFence = opened;
      } else {
        fence = opened;
        dropCaption(tokens);
      }
      tokens.push({ kind: "blank" });
      continue;
    }
    const tag = CODE_TAG.exec(body.trim())?.[1]?.toLowerCase();
    if (tag !== undefined) {
      if (!body.toLowerCase().includes(`</${tag}>`)) codeTag = `</${tag}>`;
      dropCaption(tokens);
      tokens.push({ kind: "blank" });
      continue;
    }
    if (DIFF_HUNK.test(body)) {
      hunk = true;
      dropCaption(tokens);
      tokens.push({ kind: "blank" });
      continue;
    }
    const last = tokens.at(-1);
    if (
      last?.kind === "line" &&
      last.text.trimEnd().endsWith(":") &&
      /^#{1,6}\s/.test(body.trim())
    ) {
      // Right under a line that ends in a colon (`Comment should be:`), a `# …` line is what
      // that line introduces — a comment line of the code it proposes — not a heading: a
      // reviewer who opens a section leaves a blank line first.
      tokens[tokens.length - 1] = { ...last, text: `${last.text} ${body.trim()}` };
      continue;
    }
    const heading = options.headingsAsTitles === true ? HEADING_LINE.exec(body)?.[1] : undefined;
    tokens.push(...lineTokens(heading === undefined ? body : `**${heading}**`));
  }
  return withBoldHeadings(tokens);
}

/** A markdown heading at the start of its line, and its words. */
const HEADING_LINE = /^#{1,6}[ \t]+(\S.*)$/;

/** A code excerpt's caption: at most three words and a colon (`Code context:`, `Suggested implementation:`). */
const CAPTION = /^[^\s:]+(?:\s+[^\s:]+){0,2}:$/;

/**
 * Removes the caption of the code excerpt about to start — the last line before it, blank
 * lines apart, when that is only a caption — as the excerpt itself is dropped: the caption
 * would otherwise end the finding's words with a colon that introduces nothing.
 */
function dropCaption(tokens: ReviewToken[]): void {
  let at = tokens.length - 1;
  while (tokens[at]?.kind === "blank") at -= 1;
  const last = tokens[at];
  if (last?.kind === "line" && last.item === null && !last.title && CAPTION.test(last.text)) {
    tokens.splice(at, 1);
  }
}

/** Most words a bold line may have and still head the list under it (`**Nits**`, `**Issues found**`). */
const MAX_BOLD_HEADING_WORDS = 4;

/**
 * The tokens with each short bold line that a list follows read as the heading of that list,
 * below every markdown heading (`**Nits**` then `- …`: the list's kind, as `Nits:` or `#### Nits`
 * would give). A bold line that paragraphs follow, or that ends as a sentence (`**Title.**`),
 * stays a finding's title.
 */
function withBoldHeadings(tokens: readonly ReviewToken[]): ReviewToken[] {
  return tokens.map((token, index) => {
    if (token.kind !== "line" || !token.title || token.item !== null || token.indent > 0) {
      return token;
    }
    const words = token.text.replace(/:$/, "").trim();
    if (
      words.split(/\s+/).length > MAX_BOLD_HEADING_WORDS ||
      /[.!?]$/.test(words) ||
      firstReference(words) !== null
    ) {
      return token;
    }
    const next = tokens.slice(index + 1).find((later) => later.kind !== "blank");
    return next?.kind === "line" && next.item !== null
      ? { kind: "heading", level: 6, text: words }
      : token;
  });
}

/**
 * Whether a `[!NOTE]`/`[!TIP]` alert is the review itself: its first line with words opens the
 * alert, every line with words is quoted and one states a verdict (Gittensory's `> [!TIP]`
 * holding `**✅ Approved**` and its nits). A bot's notice in an alert (CodeRabbit's "Reviews
 * paused", all its comment shows once its generated regions go) states none, and stays quiet.
 */
function isWholeAlert(lines: readonly string[]): boolean {
  const worded = lines.filter((line) => line.trim() !== "").map(unquoted);
  const first = worded[0];
  return (
    first !== undefined &&
    QUIET_ALERT.test(first.text.trim()) &&
    worded.every((line) => line.quoted) &&
    worded.some((line) => verdictOfLine(line.text.trim()) !== undefined)
  );
}

/** An element that holds code, not words: Sourcery's `<code_context>`, `<pre>`, `<code>` on lines of their own. */
const CODE_TAG = /^<(code_context|code|pre|diff)\b[^>]{0,200}>/i;
/** A unified diff hunk's header (an exporter's "Code context:"): it and the lines after it that start with ` `, `+`, `-` are code. */
const DIFF_HUNK = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;
/** The text of a line framed by runs of one mark, as exports title each comment (`##### bot :: src/a.py:5 #####`), else null. */
function bannerText(line: string): string | null {
  const mark = line.charAt(0);
  if (!"#=*~".includes(mark) || mark === "" || line.length > 400) return null;
  let start = 0;
  while (line.charAt(start) === mark) start += 1;
  let end = line.length;
  while (end > start && line.charAt(end - 1) === mark) end -= 1;
  const inner = line.slice(start, end);
  const framed = start >= 3 && line.length - end >= 3 && /^\s\S/.test(inner) && /\S\s$/.test(inner);
  return framed ? inner.trim() : null;
}

/**
 * Whether the first lines of a fenced block are a review comment's words rather than code: a
 * bold title or a label line (an export that fences each comment's body), never code.
 */
function isCommentStart(next: readonly string[]): boolean {
  const first = next.find((line) => line.trim() !== "")?.trim() ?? "";
  return /^\*\*[^*].*\*\*$/.test(first) || /^_[^_|]{1,60}_(?:\s*\|\s*_[^_|]{1,60}_)+$/.test(first);
}

/** A tag naming a place in its attributes (`<location path="a.py" line_range="31-40" />`) read as `a.py:31`. */
function placeAttributes(line: string): string {
  const tag = /^<\w+\s[^>]{0,300}>/.exec(line)?.[0];
  if (tag === undefined) return line;
  const path = /\b(?:path|file)="([^"]{1,300})"/.exec(tag)?.[1];
  if (path === undefined) return line;
  const at = /\b(?:line|line_range|start_line)="(\d{1,9})/.exec(tag)?.[1];
  return `${path}${at === undefined ? "" : `:${at}`}${line.slice(tag.length)}`;
}

/** The token of one unfenced, unquoted line. */
function lineTokens(line: string): ReviewToken[] {
  const banner = bannerText(line.trim());
  if (banner !== null) return lineTokens(`###### ${banner}`);
  const trimmed = placeAttributes(line.trim());
  if (/^(?:[-*_]\s*){3,}$/.test(trimmed)) return [{ kind: "break" }];
  if (trimmed === "" || /^\[!(?:WARNING|CAUTION|IMPORTANT|NOTE|TIP)\]$/i.test(trimmed)) {
    return [{ kind: "blank" }];
  }
  if (/^\|/.test(trimmed) || /^<sub>/i.test(trimmed) || /^[-*+]\s+\[x\]\s/i.test(trimmed)) {
    return [];
  }
  const heading = /^#{1,6}(?=\s)/.exec(trimmed);
  if (heading !== null) {
    const text = inlineText(tagText(trimmed.slice(heading[0].length).replace(/\s#+$/, "")));
    return text === ""
      ? [{ kind: "blank" }]
      : [{ kind: "heading", level: heading[0].length, text }];
  }
  const plain = inlineText(tagText(trimmed.replace(/^([-*+]\s+)\[ \]\s+/, "$1")));
  if (plain === "" || /^generated by\b/i.test(plain)) return [];
  const fields = recordLineFields(plain);
  if (fields !== null) return [{ kind: "record", fields, document: false }];
  const indent = line.length - line.trimStart().length;
  const title = /^(?:[-*+•]\s+|\d{1,3}[.)]\s+)?\*\*[^*].*\*\*[.:]?$/.test(trimmed);
  const marker = /^(?:[-*+•]|\d{1,3}[.)])\s+(?=\S)/.exec(trimmed);
  const item = marker === null ? null : inlineText(tagText(trimmed.slice(marker[0].length)));
  return [{ kind: "line", text: plain, indent, title, item }];
}
