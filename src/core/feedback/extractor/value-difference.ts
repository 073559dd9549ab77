import { ELLIPSIS } from "../clean/code-points.js";

/** Where a printed object's element starts: after `,`, `{`, `[` or `(`. */
const ELEMENT_START = /[,{[(]/;
/** Where a printed object's element ends. */
const ELEMENT_END = /[,}\])]/;
/** How far from the difference an element boundary may be and still be the one cut at. */
const MAX_CONTEXT = 24;
/** Below this saving, eliding the shared parts is not worth the marker. */
const MIN_SAVING = 12;

/**
 * The parts of two printed values that differ, each with the rest of its element around it and
 * the shared text before and after replaced by `…`: `User { id: 1, address: { city: "Lyon" } }`
 * against `… city: "Paris" …` gives `…city: "Lyon"…` and `…city: "Paris"…`. Undefined when the
 * values share too little for that to be shorter.
 */
export function valueDifference(
  expected: string,
  received: string,
): { expected: string; received: string } | undefined {
  const shortest = Math.min(expected.length, received.length);
  let prefix = 0;
  while (prefix < shortest && expected.charCodeAt(prefix) === received.charCodeAt(prefix)) {
    prefix += 1;
  }
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    expected.charCodeAt(expected.length - 1 - suffix) ===
      received.charCodeAt(received.length - 1 - suffix)
  ) {
    suffix += 1;
  }
  const start = elementStart(expected, prefix);
  // Both values end with the same `suffix` characters, so the rest of the element is as long in both.
  const tail = elementEnd(expected, expected.length - suffix) - (expected.length - suffix);
  const cutExpected = expected.length - suffix + tail;
  const cutReceived = received.length - suffix + tail;
  const saving = start + (expected.length - cutExpected);
  if (saving < MIN_SAVING) return undefined;
  return {
    expected: elided(expected, start, cutExpected),
    received: elided(received, start, cutReceived),
  };
}

/** Where the element holding position `at` starts: just after the nearest element boundary, or a space. */
function elementStart(text: string, at: number): number {
  const floor = Math.max(0, at - MAX_CONTEXT);
  for (let index = at - 1; index >= floor; index -= 1) {
    if (ELEMENT_START.test(text.charAt(index))) return skipBlanks(text, index + 1, at);
  }
  const space = text.lastIndexOf(" ", at - 1);
  return space >= 0 ? space + 1 : 0;
}

/** Where the element holding position `at - 1` ends: at the nearest element boundary, or a space. */
function elementEnd(text: string, at: number): number {
  const ceiling = Math.min(text.length, at + MAX_CONTEXT);
  for (let index = at; index < ceiling; index += 1) {
    if (ELEMENT_END.test(text.charAt(index))) return index;
  }
  const space = text.indexOf(" ", at);
  return space >= 0 ? space : text.length;
}

/** The first position from `at` (up to `limit`) that is not a blank. */
function skipBlanks(text: string, at: number, limit: number): number {
  let index = at;
  while (index < limit && text.charAt(index) === " ") index += 1;
  return index;
}

/** `text[start, end)` with a marker for each side cut away. */
function elided(text: string, start: number, end: number): string {
  return `${start > 0 ? ELLIPSIS : ""}${text.slice(start, end)}${end < text.length ? ELLIPSIS : ""}`;
}
