import { codePointLength, truncateCodePoints } from "../feedback/clean/code-points.js";

/** Longest diff an escalation carries, in code points: enough to review, short enough to read. */
export const ESCALATION_DIFF_MAX_LENGTH = 4000;

/** How many cut files the closing note names before it just counts the rest. */
const NAMED_FILES = 3;

/** One hunk: its `@@` line and body, and the headers of the file it changes (shared by its file's hunks). */
interface Hunk {
  /** The file's header lines (`diff --git`, `---`, `+++`), or text before any hunk. */
  readonly header: string;
  readonly body: string;
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
 * Splits a unified diff into hunks, each knowing its file's headers, so any subset of whole
 * hunks can be printed without orphaning one. Text that is no diff comes back as one hunk.
 */
function hunks(diff: string): Hunk[] {
  const found: Hunk[] = [];
  let header: string[] = [];
  let body: string[] | null = null;
  let file: string | null = null;
  const flush = (): void => {
    if (body !== null) found.push({ header: header.join("\n"), body: body.join("\n"), file });
  };
  for (const line of diff.split("\n")) {
    const startsFile = line.startsWith("diff --git ") || line.startsWith("--- ");
    if (body !== null && startsFile) {
      flush();
      body = null;
      header = [];
    }
    if (body === null) {
      file = headerFile(line) ?? file;
      if (line.startsWith("@@")) body = [line];
      else header.push(line);
      continue;
    }
    if (line.startsWith("@@")) {
      flush();
      body = [];
    }
    body.push(line);
  }
  if (body === null) return [{ header: "", body: header.join("\n"), file }];
  flush();
  return found;
}

/** The hunks printed back in diff order, each file's headers once, before its first kept hunk. */
function printed(all: readonly Hunk[], kept: ReadonlySet<number>): string {
  const lines: string[] = [];
  let lastHeader: string | null = null;
  all.forEach((hunk, index) => {
    if (!kept.has(index)) return;
    if (hunk.header !== lastHeader && hunk.header !== "") lines.push(hunk.header);
    lastHeader = hunk.header;
    lines.push(hunk.body);
  });
  return lines.join("\n");
}

/** The closing line that says what was cut, so nobody mistakes a cut diff for the whole change. */
function cutNote(
  all: readonly Hunk[],
  kept: ReadonlySet<number>,
  focused: boolean,
  maxLength: number,
): string {
  const files = [
    ...new Set(
      all.flatMap((hunk, index) => (kept.has(index) || hunk.file === null ? [] : [hunk.file])),
    ),
  ];
  const more = files.length > NAMED_FILES ? ` and ${files.length - NAMED_FILES} more files` : "";
  const where = files.length > 0 ? ` (${files.slice(0, NAMED_FILES).join(", ")}${more})` : "";
  const why = focused ? "; kept first: the files the failures point at" : "";
  return `… ${all.length - kept.size} of ${all.length} hunks cut${where} to fit ${maxLength} code points${why}`;
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

/** Hunk indexes in the order they are offered room: the focused files' hunks first, each group in diff order. */
function offerOrder(all: readonly Hunk[], isFocus: (file: string) => boolean): number[] {
  const indexes = all.map((_, index) => index);
  const focused = (index: number): boolean => {
    const file = all[index]?.file ?? null;
    return file !== null && isFocus(file);
  };
  return [...indexes.filter(focused), ...indexes.filter((index) => !focused(index))];
}

/** Whole hunks, in offer order, that fit in `budget` code points with their files' headers. */
function fitting(all: readonly Hunk[], order: readonly number[], budget: number): Set<number> {
  const kept = new Set<number>();
  const headers = new Set<string>();
  let used = 0;
  for (const index of order) {
    const hunk = all[index];
    if (hunk === undefined) continue;
    const header = headers.has(hunk.header) ? 0 : codePointLength(hunk.header) + 1;
    const length = header + codePointLength(hunk.body) + 1;
    if (used + length > budget) continue;
    kept.add(index);
    headers.add(hunk.header);
    used += length;
  }
  return kept;
}

/**
 * A diff within `maxLength` code points: whole hunks — those of the files `isFocus` accepts
 * (the files the failures point at) first, then the rest from the top — printed in diff order,
 * and a closing line naming how many hunks were cut and in which files. When not even one hunk
 * fits, the first offered is cut at a line boundary and the note says the hunk itself was cut.
 */
export function boundedDiff(
  diff: string,
  maxLength: number = ESCALATION_DIFF_MAX_LENGTH,
  isFocus: (file: string) => boolean = () => false,
): string {
  if (codePointLength(diff) <= maxLength) return diff;
  const all = hunks(diff);
  const order = offerOrder(all, isFocus);
  const focused = all.some((hunk) => hunk.file !== null && isFocus(hunk.file));
  // The note's length depends on what it names; shrink the room until hunks and note fit together.
  let reserve = 0;
  for (;;) {
    const kept = fitting(all, order, maxLength - reserve);
    if (kept.size === 0) break;
    const note = cutNote(all, kept, focused, maxLength);
    const result = `${printed(all, kept)}\n${note}`;
    if (codePointLength(result) <= maxLength) return result;
    reserve += codePointLength(note) + 1;
  }
  const first = all[order[0] ?? 0];
  const count = all.length === 1 ? "its only hunk" : `the first of ${all.length} hunks`;
  const note = `… diff cut inside ${count} to fit ${maxLength} code points`;
  const budget = maxLength - codePointLength(note) - 1;
  const text =
    first === undefined ? "" : [first.header, first.body].filter((part) => part !== "").join("\n");
  const head = budget <= 0 ? "" : leadingLines(text, budget);
  return truncateCodePoints(`${head}\n${note}`, maxLength);
}
