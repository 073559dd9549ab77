import type { Priority } from "../feedback.js";

/**
 * Level words reviewers and tools name a severity with, on loopgate's three levels. `high` is
 * what must change before the work is accepted (Critical, Blocker, Gemini's `high`, Important
 * in the two-level Important/Nit schemes, a tool's `error`, a failed gate); `medium` what
 * should (CodeRabbit's and bug trackers' Major, Medium, a tool's `warning`); `low` what may
 * (Minor and Trivial, which CodeRabbit files under Nitpick, Nit, Optional, Info, style).
 * Codex's `P0`–`P3` badges map the same way: P0 and P1 high, P2 medium, P3 low.
 */
const LEVEL_WORDS: ReadonlyMap<string, Priority> = new Map<string, Priority>([
  ["critical", "high"],
  ["blocker", "high"],
  ["blockers", "high"],
  ["blocking", "high"],
  ["high", "high"],
  ["severe", "high"],
  ["important", "high"],
  ["error", "high"],
  ["errors", "high"],
  ["fatal", "high"],
  ["failed", "high"],
  ["failing", "high"],
  ["major", "medium"],
  ["medium", "medium"],
  ["moderate", "medium"],
  ["warning", "medium"],
  ["warnings", "medium"],
  ["minor", "low"],
  ["low", "low"],
  ["trivial", "low"],
  ["nit", "low"],
  ["nits", "low"],
  ["nitpick", "low"],
  ["nitpicks", "low"],
  ["optional", "low"],
  ["info", "low"],
  ["note", "low"],
  ["notes", "low"],
  ["hint", "low"],
  ["style", "low"],
  ["cosmetic", "low"],
  ["pep8", "low"],
  // Codex's badges: P0 "drop everything", P1 urgent, P2 normal, P3 nice to have.
  ["p0", "high"],
  ["p1", "high"],
  ["p2", "medium"],
  ["p3", "low"],
]);

/**
 * Coloured severity marks: red high, orange and yellow the middle (CodeRabbit's 🟡 says Minor
 * beside it, and its word wins), green, blue and white low; ⚠️ is a warning, 🧹 a nitpick.
 */
const LEVEL_MARKS: readonly (readonly [string, Priority])[] = [
  ["🔴", "high"],
  ["🛑", "high"],
  ["🚨", "high"],
  ["❗", "high"],
  ["🟠", "medium"],
  ["🟡", "medium"],
  ["⚠", "medium"],
  ["🟢", "low"],
  ["🔵", "low"],
  ["⚪", "low"],
  ["🧹", "low"],
];

/**
 * The kinds CodeRabbit's older comments name instead of a level, read like Conventional
 * Comments: a potential issue is an issue (high), a refactor suggestion a suggestion (medium), a
 * nitpick a nit (low).
 */
const KIND_PHRASES: readonly (readonly [RegExp, Priority])[] = [
  [/\bpotential issue\b/i, "high"],
  [/\brefactor suggestion\b/i, "medium"],
  [/\bverification agent\b/i, "medium"],
];

/** `text` without its paths and file names, whose words (`src/errors/`, `minor.ts`) name no level. */
function withoutPaths(text: string): string {
  return text
    .split(/\s/)
    .filter((token) => !token.includes("/") && !/\.[a-z]/i.test(token))
    .join(" ");
}

/**
 * The level a label, heading or badge names: its first level word (`### Minor`, `🟠 Major`,
 * `![medium]`), else a CodeRabbit kind (`⚠️ Potential issue`), else its first coloured mark;
 * null when it names none. `non-blocking` is low, whatever `blocking` says.
 */
export function levelOf(text: string): Priority | null {
  const words = withoutPaths(text).replaceAll("_", " ");
  if (/\bnon-?blocking\b/i.test(words)) return "low";
  for (const word of words.toLowerCase().split(/[^a-z0-9]+/)) {
    const level = LEVEL_WORDS.get(word);
    if (level !== undefined) return level;
  }
  const kind = KIND_PHRASES.find(([phrase]) => phrase.test(words))?.[1];
  if (kind !== undefined) return kind;
  let first: { at: number; level: Priority } | null = null;
  for (const [mark, level] of LEVEL_MARKS) {
    const at = words.indexOf(mark);
    if (at >= 0 && (first === null || at < first.at)) first = { at, level };
  }
  return first?.level ?? null;
}

/**
 * The level a tool gives a finding on a line that starts with its location: `path:3:7: error:`,
 * `path(3,7): error TS2322`, `path:3:7 - warning:`, ESLint's `[Error/rule]`, pylint's message id
 * (`E0606:`: E and F high, W medium, C, R and I low). Null when the line names none (flake8's
 * `E501` is a code, not a level).
 */
export function toolLevelOf(line: string): Priority | null {
  const trimmed = line.trimEnd();
  const tag = trimmed.slice(Math.max(0, trimmed.lastIndexOf("[")));
  const bracketed = /^\[(error|warning|info)\/[^\]\s]+\]$/i.exec(tag)?.[1];
  if (bracketed !== undefined) return LEVEL_WORDS.get(bracketed.toLowerCase()) ?? null;
  const afterPlace = /^\S+?(?::\d+){1,2}:?|^\S+?\(\d+(?:,\d+)?\):?/.exec(line)?.[0].length ?? -1;
  if (afterPlace < 0) return null;
  const rest = line.slice(afterPlace, afterPlace + 40);
  const word = /^\s*(?:-\s*)?(error|warning|note|info|fatal)\b/i.exec(rest)?.[1];
  if (word !== undefined) return LEVEL_WORDS.get(word.toLowerCase()) ?? null;
  const pylint = /^\s*([CEFIRW])\d{4}:/.exec(rest)?.[1];
  if (pylint === undefined) return null;
  return pylint === "E" || pylint === "F" ? "high" : pylint === "W" ? "medium" : "low";
}
