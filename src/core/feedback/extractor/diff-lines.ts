import { errorLine } from "./error-line.js";
import type { LineReader } from "./extraction.js";
import { setValue, type Side } from "./failure-draft.js";
import { indentOf, MAX_VALUE_LINES, REPORT_START } from "./line-blocks.js";
import { frameLocation } from "./stack-frames.js";

/** Which printed diff sign stands for which side (`- Expected` / `+ Received`, `+ actual - expected`). */
interface DiffSigns {
  readonly plus: Side;
  readonly minus: Side;
}

const JEST_SIGNS: DiffSigns = { plus: "received", minus: "expected" };
const MOCHA_SIGNS: DiffSigns = { plus: "expected", minus: "received" };

/** Diff headers of Jest/Vitest, Mocha, node:assert and node-tap, and what their signs mean. */
const DIFF_HEADERS: readonly { readonly pattern: RegExp; readonly signs: DiffSigns }[] = [
  // Jest right-aligns the two counts (`- Expected  - 10` over `+ Received  +  1`).
  { pattern: /^- (?:Expected|Snapshot)(?:\s+-\s+\d+)?$/, signs: JEST_SIGNS },
  { pattern: /^\+ Received(?:\s+\+\s+\d+)?$/, signs: JEST_SIGNS },
  { pattern: /^\+ expected - actual$/, signs: MOCHA_SIGNS },
  { pattern: /^\+ actual - expected(?: \.\.\. Lines skipped)?$/, signs: JEST_SIGNS },
  { pattern: /^--- expected$/, signs: JEST_SIGNS },
  { pattern: /^\+\+\+ actual$/, signs: JEST_SIGNS },
  // Vitest's `toHaveBeenCalledWith` diffs each call's arguments against the expected ones.
  { pattern: /^\d+(?:st|nd|rd|th) \S+ call:$/, signs: JEST_SIGNS },
];

/** The signs of a diff header line, or null. */
function diffSigns(trimmed: string): DiffSigns | null {
  return DIFF_HEADERS.find((header) => header.pattern.test(trimmed))?.signs ?? null;
}

/** Whether the line is a diff header (`- Expected`, `+ expected - actual`, `--- expected`). */
export function isDiffHeader(trimmed: string): boolean {
  return diffSigns(trimmed) !== null;
}

/**
 * A diff after its header: `-` and `+` lines assigned to sides as the header says. It ends at
 * a blank line, a frame, a new report, or a line left of the header (the next TAP key).
 */
export const readDiff: LineReader = (extraction, { index, trimmed: printed, indent }) => {
  const signs = diffSigns(printed);
  if (signs === null) return null;
  const { lines } = extraction;
  const draft = extraction.draft();
  const sides: Record<Side, string[]> = { expected: [], received: [] };
  // Each side whole: its own lines and the lines both share, in order.
  const blocks: Record<Side, string[]> = { expected: [], received: [] };
  let cursor = index + 1;
  let collected = 0;
  while (cursor < lines.length && cursor <= index + MAX_VALUE_LINES) {
    const raw = lines[cursor] ?? "";
    const trimmed = raw.trim();
    if (trimmed === "") {
      if (collected > 0) break;
    } else if (indentOf(raw) < indent && !/^[+-]\s/.test(raw)) {
      // Left of the header ends the diff (the next TAP key), but for a changed line: Vitest
      // puts its signs at the margin below an indented `1st spy call:`.
      break;
    } else if (diffSigns(trimmed) === null) {
      if (
        frameLocation(trimmed) !== null ||
        REPORT_START.test(trimmed) ||
        errorLine(trimmed) !== null
      )
        break;
      const sign = trimmed.charAt(0);
      if (sign === "+" || sign === "-") {
        // Kept as printed, the comma too: a line of a printed object is read as the runner wrote it.
        const side = sign === "+" ? signs.plus : signs.minus;
        const value = trimmed.slice(1).trim();
        sides[side].push(value);
        blocks[side].push(value);
        collected += 1;
      } else if (!HUNK_HEADER.test(trimmed)) {
        blocks.expected.push(trimmed);
        blocks.received.push(trimmed);
      }
    }
    cursor += 1;
  }
  // Changed lines that are all blank (an empty line too many or missing) say nothing alone.
  const changed = [...sides.expected, ...sides.received];
  // Changed lines that are only brackets (`-   ],` / `-   Array [`: Jest moving an element into
  // another array) say where the sides part, not what either holds: the whole sides do.
  const blank = changed.every((line) => line === "" || STRUCTURE_LINE.test(line));
  // Beside lines with elements, the brackets a change moved (`},` / `Object {` of an element
  // moved to another place in a list) only join the elements into a value no side printed.
  const values = blank
    ? (differingSides(blocks) ?? differingSides(sides))
    : (differingSides(withoutStructure(withinContaining(sides))) ?? differingSides(blocks));
  // Changed lines that only put the same elements in another order (`+ 1`, `+ 2`, `- 2`, `- 1`)
  // say the order is wrong, not what it should be: a pair the message states whole says it.
  if (isReorder(sides)) draft.reordered = true;
  if (values !== null) {
    setValue(draft, "expected", values.expected, printed);
    setValue(draft, "received", values.received, printed);
  }
  return cursor;
};

/** A printed structure's line with no element in it: `],`, `Array [`, `Object {`, `}`. */
const STRUCTURE_LINE = /^(?:[\w$]+ )?[[\]{}()]+,?$/;

/** A unified diff's hunk header (`@@ -1,13 +1,13 @@`), which Jest prints above a long diff. */
const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@$/;

/** A printed object's property line, its key first: `"resolution": "720P",`. */
const PROPERTY_LINE = /^("(?:[^"\\]|\\.)*"|[\w$]+): /;

/**
 * The changed lines of a diff against `expect.objectContaining(…)` (`- ObjectContaining {`),
 * without the received properties the wanted object does not name: they cannot fail the check,
 * and they would bury the one property that did (`"resolution": "480P",` among thirteen).
 */
function withinContaining(sides: Record<Side, string[]>): Record<Side, string[]> {
  if (!sides.expected.some((line) => /^ObjectContaining \{$/.test(line))) return sides;
  const keyOf = (line: string): string | undefined => PROPERTY_LINE.exec(line)?.[1];
  const named = new Set(sides.expected.map(keyOf));
  const received = sides.received.filter((line) => {
    const key = keyOf(line);
    return key === undefined || named.has(key);
  });
  return { expected: sides.expected, received };
}

/** A printed structure with nothing in it, `Object {}`, `[]`: a whole value, not a bracket. */
const EMPTY_STRUCTURE = /^(?:[\w$]+ )?(?:\{\}|\[\]),?$/;

/** Each side's changed lines without those that hold no element (an empty structure is one). */
function withoutStructure(sides: Record<Side, string[]>): Record<Side, string[]> {
  const kept = (lines: readonly string[]) =>
    lines.filter((line) => !STRUCTURE_LINE.test(line) || EMPTY_STRUCTURE.test(line));
  return { expected: kept(sides.expected), received: kept(sides.received) };
}

/**
 * The two sides' lines as values, or null when they read the same. The changed lines alone read
 * the same when an element only moved (`- "identity"`, `  "gzip"`, `+ "identity"`), and say
 * nothing when they are blank: the whole sides, the lines both share included, then show the
 * order or the empty line that differs.
 */
function differingSides(
  lines: Record<Side, readonly string[]>,
): { expected: string; received: string } | null {
  const repeated = isRepeated(lines.expected, lines.received);
  const expected = joinedSide(repeated ? lines.expected.slice(0, 1) : lines.expected);
  const received = joinedSide(repeated ? lines.received.slice(0, 1) : lines.received);
  return expected === received ? null : { expected, received };
}

/**
 * Whether both sides are one changed line each, repeated as often (`- "type": "sibling",` three
 * times against `+ "type": "adjacent",` three times): one change made in several places, said once,
 * so the failure reads as the same cause as those that make it once.
 */
function isRepeated(expected: readonly string[], received: readonly string[]): boolean {
  const [first] = expected;
  const [other] = received;
  return (
    expected.length > 1 &&
    expected.length === received.length &&
    expected.every((line) => line === first) &&
    received.every((line) => line === other)
  );
}

/** Whether two sides' changed lines are the same lines in another order. */
function isReorder(lines: Record<Side, readonly string[]>): boolean {
  const key = (side: readonly string[]) =>
    JSON.stringify(side.map((line) => line.replace(/,$/, "")).sort());
  return (
    lines.expected.length > 1 &&
    lines.expected.join("\n") !== lines.received.join("\n") &&
    key(lines.expected) === key(lines.received)
  );
}

/** One line of a string node:assert prints as a concatenation: `'| a | b |\n' +`. */
const CONCATENATED_LINE = /^'(.*?)(?:\\n)?'(?: \+)?$/;

/**
 * A side's lines as one value. node:assert prints a multi-line string as JavaScript pieces
 * (`'line one\n' +`); the text of the lines is what differs, so the pieces lose their quoting.
 */
function joinedSide(lines: readonly string[]): string {
  const concatenated =
    lines.some((line) => line.endsWith("\\n' +")) &&
    lines.every((line) => CONCATENATED_LINE.test(line));
  return (concatenated ? lines.map((line) => line.replace(CONCATENATED_LINE, "$1")) : lines).join(
    "\n",
  );
}
