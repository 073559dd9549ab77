import type { LineReader } from "./extraction.js";
import { setLocation, setValue, type Side } from "./failure-draft.js";
import { indentedBelow, MAX_VALUE_LINES, nextNonBlank } from "./line-blocks.js";
import { parseLocation } from "./stack-frames.js";
import { isBlockIndicator } from "./tap-lines.js";
import { isDiffHeader } from "./diff-lines.js";
import { quotedEnd } from "../clean/quoted-text.js";

/** Keys that print one side of a comparison: Jest/Vitest (with an inline snapshot's `Snapshot:`), node:assert, node-tap, testify, cargo, Go. */
export const VALUE_KEY =
  /^(?:(expected|received|actual|wanted|found|left|right|got|want)(?: [a-z]+){0,7}|(snapshot))[ \t]*:(?:[ \t](.*))?$/i;

/**
 * An error's own report line (`AssertionError [ERR_ASSERTION]: …`, `TypeError: x`): after a
 * key of several words (fast-check's `Got error: …`) it is the error that follows, not a value.
 */
const ERROR_REPORT = /^[A-Z][\w.]*(?:Error|Exception)(?: \[[A-Z_]+\])?:/;

/** A printed primitive: a quoted string, a number, or a JavaScript constant. */
const PRIMITIVE = /^(?:'[^']*'|"[^"]*"|-?\d[\d.e+-]*|true|false|null|undefined|NaN|-?Infinity)$/;

/** Vitest's `- Expected:` / `+ Received:` with the value on the lines below, up to a blank line. */
export const readValueBelow: LineReader = (extraction, { index, trimmed: printed }) => {
  const awaited = /^([+-]) (Expected|Received):$/.exec(printed);
  if (awaited === null) return null;
  const side: Side = awaited[2] === "Expected" ? "expected" : "received";
  const { lines } = extraction;
  let cursor = nextNonBlank(lines, index + 1);
  const value: string[] = [];
  while (cursor < lines.length && value.length < MAX_VALUE_LINES) {
    const trimmed = (lines[cursor] ?? "").trim();
    if (trimmed === "" || /^[+-] (?:Expected|Received):$/.test(trimmed)) break;
    value.push(trimmed);
    cursor += 1;
  }
  setValue(extraction.draft(), side, value.join("\n"), printed);
  return cursor;
};

/** A call of a mock Jest lists under a bare `Received`: `1: "rename", "1"`, `->     2: …`. */
const LISTED_CALL = /^(->\s+)?\d+: (.+)$/;

/**
 * Jest's bare `Received` over a mock's calls (`toHaveBeenCalledWith` of a mock called several
 * times, `toHaveBeenNthCalledWith`): the call its `->` marks (the nth), else the last listed
 * (the latest), as the received side — without it the item says only what was wanted.
 */
export const readListedCalls: LineReader = (extraction, { index, trimmed: printed }) => {
  if (printed !== "Received") return null;
  const { lines } = extraction;
  const calls: { marked: boolean; args: string }[] = [];
  let cursor = index + 1;
  for (; cursor < lines.length && calls.length < MAX_VALUE_LINES; cursor += 1) {
    const call = LISTED_CALL.exec((lines[cursor] ?? "").trim());
    if (call?.[2] === undefined) break;
    calls.push({ marked: call[1] !== undefined, args: call[2] });
  }
  const chosen = calls.find((call) => call.marked) ?? calls.at(-1);
  if (chosen === undefined) return null;
  setValue(extraction.draft(), "received", chosen.args, printed);
  return cursor;
};

/** `expected: value`, with a YAML block or an open bracket continuing on the lines below. */
export const readKeyValue: LineReader = (extraction, { index, trimmed: printed, indent }) => {
  const match = VALUE_KEY.exec(printed);
  const named = match?.[1] ?? match?.[2];
  if (match === null || named === undefined) return null;
  const key = named.toLowerCase();
  const phrase = printed.slice(0, printed.indexOf(":")).trim();
  if (phrase.includes(" ") && ERROR_REPORT.test((match[3] ?? "").trim())) return null;
  let value = withoutTrailingComma((match[3] ?? "").trim());
  let next = index + 1;
  const opensBracket = value.endsWith("{") || value.endsWith("[");
  // Vitest's `Received:` above its diff of a mock's calls (`1st spy call:`): the diff says it.
  if (
    value === "" &&
    isDiffHeader(extraction.lines[nextNonBlank(extraction.lines, index + 1)]?.trim() ?? "")
  ) {
    return index + 1;
  }
  if (value === "" || isBlockIndicator(value) || opensBracket) {
    const below = indentedBelow(extraction.lines, index, indent, opensBracket);
    value = withoutTrailingComma([...(opensBracket ? [value] : []), ...below.lines].join("\n"));
    next = below.next;
  } else if (isOpenString(value)) {
    const rest = closingLines(extraction.lines, index + 1);
    if (rest !== null) {
      value = [value, ...rest].map(withoutSpaceMark).join("\n");
      next = index + 1 + rest.length;
    }
  }
  const draft = extraction.draft();
  const pair = oneLinePair(key, value);
  if (pair !== null) {
    setValue(draft, "expected", pair.expected, printed);
    setValue(draft, "received", pair.received, printed);
    return index + 1;
  }
  if (key === "left" || key === "right") {
    // Before Rust 1.73 the panic message, quoted, ends on the `right:` line with the location.
    const quoteEnd = value.lastIndexOf("', ");
    const location = quoteEnd < 0 ? null : parseLocation(value.slice(quoteEnd + 3));
    if (location !== null) {
      setLocation(draft, location);
      value = value.slice(0, quoteEnd);
    }
    if (value !== "") draft[key] ??= value;
    if (draft.firstDetail === "") draft.firstDetail = printed;
  } else {
    const side: Side = isExpectedKey(key) ? "expected" : "received";
    setValue(draft, side, value, printed);
  }
  return next;
};

/** Whether a value opens a double-quoted string it does not close: Jest's multi-line string. */
function isOpenString(value: string): boolean {
  return value.startsWith('"') && quotedEnd(value, 0) < 0;
}

/**
 * The lines after an open string's first, up to the one that closes it (`Resolution path: a"`),
 * trimmed; null when none does within `MAX_VALUE_LINES` or a blank line comes first.
 */
function closingLines(lines: readonly string[], from: number): string[] | null {
  const rest: string[] = [];
  for (let at = from; at < lines.length && rest.length < MAX_VALUE_LINES; at += 1) {
    const trimmed = (lines[at] ?? "").trim();
    if (trimmed === "") return null;
    rest.push(trimmed);
    if (/(?:^|[^\\])(?:\\\\)*"$/.test(trimmed)) return rest;
  }
  return null;
}

/** A line of a printed string without Jest's `·`, which marks the space that ended it. */
function withoutSpaceMark(line: string): string {
  return line.endsWith("·") ? `${line.slice(0, -1)} ` : line;
}

/** node:assert's `actual !== expected` line (`'123' !== 123`), when both sides are primitives. */
export const readStrictInequality: LineReader = (extraction, { index, trimmed }) => {
  const { current } = extraction;
  if (current === null) return null;
  const at = trimmed.indexOf(" !== ");
  if (at <= 0) return null;
  const received = trimmed.slice(0, at);
  const expected = trimmed.slice(at + 5);
  if (!PRIMITIVE.test(received) || !PRIMITIVE.test(expected)) return null;
  setValue(current, "received", received, trimmed);
  setValue(current, "expected", expected, trimmed);
  return index + 1;
};

/**
 * Whether a value key (lower case) names the expected side: `expected`, `wanted`, `want`, or
 * Jest's `Snapshot:` (an inline snapshot's stored value, beside `Received:`).
 */
function isExpectedKey(key: string): boolean {
  return key === "expected" || key === "wanted" || key === "want" || key === "snapshot";
}

/** The other side's label inside a custom message's line: `Expected date to be: X Received: Y`. */
const OTHER_SIDE = / (Received|Actual|Got|Expected): /;

/** A printed object or array in parentheses closing a custom message: context, not the value. */
const CONTEXT_DUMP = / \((?:\[|\{|\w+ \{)/;

/**
 * Both sides of a custom matcher's one-line message, `Expected date to be: Fri Dec 30 2016 …
 * Received: Sat Dec 30 1916 … ([ParsingComponents {…`: the second label ends the first side,
 * and a dump in parentheses after the second (the object the check was made on) is no part of
 * it. Null when the line holds one side.
 */
function oneLinePair(key: string, value: string): { expected: string; received: string } | null {
  const other = OTHER_SIDE.exec(value);
  const label = other?.[1]?.toLowerCase();
  if (other === null || label === undefined) return null;
  const first = isExpectedKey(key);
  if (first === (label === "expected")) return null;
  const before = value.slice(0, other.index).trim();
  const after = value.slice(other.index + other[0].length);
  const dump = CONTEXT_DUMP.exec(after);
  const second = (dump === null ? after : after.slice(0, dump.index)).trim();
  if (before === "" || second === "") return null;
  return first ? { expected: before, received: second } : { expected: second, received: before };
}

/** A value without the comma that separated it from the next field of a printed object. */
function withoutTrailingComma(value: string): string {
  return value.endsWith(",") ? value.slice(0, -1).trimEnd() : value;
}
