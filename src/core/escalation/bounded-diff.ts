import { codePointLength, truncateCodePoints } from "../feedback/code-points.js";

/** Longest diff an escalation carries, in code points: enough to review, short enough to read. */
export const ESCALATION_DIFF_MAX_LENGTH = 4000;

/** How many cut files the closing note names before it just counts the rest. */
const NAMED_FILES = 3;

/** One hunk with whatever precedes it up to the previous hunk (file headers, preamble). */
interface Hunk {
  readonly text: string;
  readonly file: string | null;
}

/** The file a diff header line names (`diff --git a/x b/x`, `+++ b/x`), or null. */
function headerFile(line: string): string | null {
  if (line.startsWith("+++ ")) {
    const path = line.slice(4).split("\t")[0] ?? "";
    return path === "/dev/null" ? null : path.replace(/^b\//, "");
  }
  if (line.startsWith("diff --git ")) return line.split(" b/").at(-1) ?? null;
  return null;
}

/**
 * Splits a unified diff into hunks, each carrying the headers before it, so whole hunks can be
 * dropped without orphaning a file header. Text that is no diff comes back as one hunk.
 */
function hunks(diff: string): Hunk[] {
  const found: Hunk[] = [];
  let lines: string[] = [];
  let hasHunk = false;
  let file: string | null = null;
  let hunkFile: string | null = null;
  for (const line of diff.split("\n")) {
    const startsFile = line.startsWith("diff --git ") || line.startsWith("--- ");
    if (hasHunk && (startsFile || line.startsWith("@@"))) {
      found.push({ text: lines.join("\n"), file: hunkFile });
      lines = [];
      hasHunk = false;
    }
    file = headerFile(line) ?? file;
    if (line.startsWith("@@") && !hasHunk) {
      hasHunk = true;
      hunkFile = file;
    }
    lines.push(line);
  }
  found.push({ text: lines.join("\n"), file: hasHunk ? hunkFile : file });
  return found;
}

/** The files of a run of cut hunks: the first few by name, in order, and how many in all. */
interface CutFiles {
  readonly named: readonly string[];
  readonly count: number;
}

/**
 * For every hunk index, the files of the hunks from there to the end, built back to front so
 * that trying each cut point costs constant time rather than a rescan of the rest.
 */
function cutFilesFrom(all: readonly Hunk[]): CutFiles[] {
  const result: CutFiles[] = new Array<CutFiles>(all.length + 1);
  result[all.length] = { named: [], count: 0 };
  const seen = new Set<string>();
  for (let index = all.length - 1; index >= 0; index -= 1) {
    const file = all[index]?.file ?? null;
    const later = result[index + 1] ?? { named: [], count: 0 };
    if (file === null) {
      result[index] = later;
      continue;
    }
    const named = [file, ...later.named.filter((name) => name !== file)].slice(0, NAMED_FILES);
    result[index] = { named, count: later.count + (seen.has(file) ? 0 : 1) };
    seen.add(file);
  }
  return result;
}

/** The closing line that says what was cut, so nobody mistakes a cut diff for the whole change. */
function cutNote(cut: number, total: number, files: CutFiles, maxLength: number): string {
  const more = files.count > NAMED_FILES ? ` and ${files.count - NAMED_FILES} more files` : "";
  const where = files.count > 0 ? ` (${files.named.join(", ")}${more})` : "";
  return `… ${cut} of ${total} hunks cut${where} to fit ${maxLength} code points`;
}

/** The first lines of `text` that fit in `budget` code points; a lone overlong line is cut inside. */
function leadingLines(text: string, budget: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const line of text.split("\n")) {
    const length = codePointLength(line) + (kept.length > 0 ? 1 : 0);
    if (used + length > budget) break;
    kept.push(line);
    used += length;
  }
  return kept.length > 0 ? kept.join("\n") : truncateCodePoints(text, budget);
}

/**
 * A diff within `maxLength` code points: whole hunks from the top while they fit, then a line
 * naming how many hunks were cut and in which files. When even the first hunk is too long it
 * is cut at a line boundary and the note says the hunk itself was cut.
 */
export function boundedDiff(diff: string, maxLength: number = ESCALATION_DIFF_MAX_LENGTH): string {
  if (codePointLength(diff) <= maxLength) return diff;
  const all = hunks(diff);
  const files = cutFilesFrom(all);
  const noteFrom = (index: number): string =>
    cutNote(all.length - index, all.length, files[index] ?? { named: [], count: 0 }, maxLength);
  const kept: string[] = [];
  let used = 0;
  for (const hunk of all) {
    const length = codePointLength(hunk.text) + 1;
    const next = kept.length + 1;
    const note = next < all.length ? codePointLength(noteFrom(next)) : 0;
    if (used + length + note > maxLength) break;
    kept.push(hunk.text);
    used += length;
  }
  if (kept.length === 0) {
    const first = all[0];
    const count = all.length === 1 ? "its only hunk" : `the first of ${all.length} hunks`;
    const note = `… diff cut inside ${count} to fit ${maxLength} code points`;
    const budget = maxLength - codePointLength(note) - 1;
    const head = first === undefined || budget <= 0 ? "" : leadingLines(first.text, budget);
    return truncateCodePoints(`${head}\n${note}`, maxLength);
  }
  return [...kept, noteFrom(kept.length)].join("\n");
}
