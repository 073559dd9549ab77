import { codePointLength, ELLIPSIS, truncateCodePoints } from "../clean/code-points.js";
import { kindOfCheck } from "./kind-of-check.js";
import { oneLine } from "../../one-line.js";
import type { Failure } from "../feedback.js";
import { valueDifference } from "../extractor/value-difference.js";
import { withoutTrailing } from "../clean/without-trailing.js";
import { quotedEnd } from "../clean/quoted-text.js";

/**
 * Longest error message in a whole item: room for Jasmine's one line per `toEqual` difference
 * (four of them), each a fact a fixer needs; fitting takes so long a form only when there is room.
 */
const MAX_WHOLE_MESSAGE = 400;
/** Longest error message in a brief item without values: enough for the error and its gist. */
const MAX_BRIEF_MESSAGE = 64;
/** Longest `want X, got Y` shown whole: a longer pair first shows what differs. */
const MAX_WHOLE_PAIR = 130;
/** How much longer than the pair the error's words may be and still stand for it. */
const MAX_WORDS_BEYOND_PAIR = 40;
/** Longest note beside values in a brief item: the kind of check, with the values elided. */
const MAX_BRIEF_NOTE = 40;

/** How much longer than the bare pair the runner's own words may be and still replace it. */
const MAX_OWN_BEYOND_BARE = 8;
/** A comment after a check's words (Vitest's `// Object.is equality`): the kind says it. */
const COMMENT_AFTER = / \/\/ [^/]*$/;

/** What an item can say about a failure besides where it is, each from briefest to whole. */
export interface FailureParts {
  /** `want X, got Y`: a long pair first shortened to the part that differs. */
  readonly values: readonly string[];
  /** The error's own words: the kind of check beside values, else what went wrong. */
  readonly words: readonly string[];
  /** How many sides the values show: a pair is worth more than one side. */
  readonly sides: 0 | 1 | 2;
  /**
   * The words a form cut to the room left is made from, "" when they say nothing the values do
   * not: beside values, the kind of check with the values elided; without, what went wrong.
   */
  readonly cuttable: string;
}

/** The headline of a failure: the values when known, else its message, else its name. */
export function failureGist(failure: Failure): string {
  if (failure.expected !== null && failure.received !== null)
    return comparison(failure.expected, failure.received);
  return oneLine(failure.message) || (failure.test ?? failure.file ?? "failing test");
}

/**
 * A failure's values and words, each as forms from briefest to whole, for fitting to pick:
 * values whole or shortened to the element that differs; beside values, the error's words with
 * the values they quote elided (they name the kind of check: `toBe`, `strictly equal`), then
 * whole; without values, the words without a generic `AssertionError:` first (the error's name
 * tells a failed check from a crash once there is room). Words that quote both values stand for
 * the pair, unless `said` (the summary) already names their kind of check. Multi-line values
 * are folded.
 */
export function failureParts(failure: Failure, said = ""): FailureParts {
  // A colon that ends the words announced values printed below them: the item shows those.
  const message = withoutTrailing(oneLine(failure.message), ":");
  const { expected, received } = failure;
  if (expected !== null && received !== null) {
    const whole = comparison(expected, received);
    const shown = shownPair(expected, received);
    const brief = comparison(shown.expected, shown.received);
    const own = quotingBoth(withoutErrorName(message), whole, [expected, received]);
    // The words without the matcher's note (`// Object.is equality`), which names no value.
    const bare = own?.replace(COMMENT_AFTER, "");
    // When the summary already names the kind of check, the bare pair says the rest.
    const kind = kindOfCheck(withoutErrorName(message), [oneLine(expected), oneLine(received)]);
    if (own !== null && bare !== undefined && !said.includes(kind)) {
      // Whole, they are the runner's line with its error's name (`AssertionError [ERR_ASSERTION]:`).
      const named = codePointLength(message) <= MAX_WHOLE_MESSAGE ? [message] : [];
      const values = distinct([brief === whole ? bare : brief, own, ...named]);
      return { values, words: [], sides: 2, cuttable: "" };
    }
    // The summary names the kind, but the runner's own words are hardly longer than the bare
    // pair (`expected './a/./b' to be './a/b'`): they say the same, as the runner printed it.
    // Only words that label a side (chai's `expected X to be Y`) say which is which, as the
    // pair does; `assert 5 == 4` does not, and a runner's own cut (`{'address': …`) says less.
    if (
      bare !== undefined &&
      bare.startsWith("expected ") &&
      !bare.includes(ELLIPSIS) &&
      brief === whole &&
      codePointLength(bare) <= codePointLength(whole) + MAX_OWN_BEYOND_BARE
    ) {
      return { values: [bare], words: [], sides: 2, cuttable: "" };
    }
    // `first != second` alone says no more than the pair, only as the runner shortened it.
    if (isBarePair(message))
      return { values: distinct([brief, whole]), words: [], sides: 2, cuttable: "" };
    const notes = [
      briefNote(withoutErrorName(message), [oneLine(expected), oneLine(received)]),
      truncateCodePoints(withoutErrorName(message), MAX_WHOLE_MESSAGE),
      truncateCodePoints(message, MAX_WHOLE_MESSAGE),
    ].filter((note) => saysMoreThan(note, failure));
    const cuttable = saysMoreThan(message, failure) ? kind : "";
    return { values: distinct([brief, whole]), words: distinct(notes), sides: 2, cuttable };
  }
  const side =
    expected !== null
      ? `want ${oneLine(expected)}`
      : received !== null
        ? `got ${oneLine(received)}`
        : "";
  // With its error's name, a brief cut would say less of what went wrong: it is offered whole.
  const named = codePointLength(message) <= MAX_BRIEF_MESSAGE ? message : "";
  const words = [
    truncateCodePoints(withoutErrorName(message), MAX_BRIEF_MESSAGE),
    named,
    truncateCodePoints(message, MAX_WHOLE_MESSAGE),
  ].filter((form) => form !== "");
  return {
    values: side === "" ? [] : [side],
    words: distinct(words),
    sides: side === "" ? 0 : 1,
    cuttable: saysMoreThan(message, failure) ? withoutErrorName(message) : "",
  };
}

/**
 * The error's own words when they quote both values and are not much longer than `whole`
 * (`expected './a/./b' to be './a/b'`, `On bytes(9999), expected '10 kB', but got '9.8 kB'`):
 * they say what was checked and both sides at once, so they stand for the pair. Null otherwise.
 */
function quotingBoth(message: string, whole: string, values: readonly string[]): string | null {
  if (codePointLength(message) > codePointLength(whole) + MAX_WORDS_BEYOND_PAIR) return null;
  const plain = sameQuotes(message);
  const quotes = values.every((value) => {
    const line = oneLine(value);
    return line !== "" && standsIn(plain, sameQuotes(line));
  });
  return quotes ? message : null;
}

/** Whether `value` occurs in `text` as a token of its own: `123` does not stand in `"123"`. */
function standsIn(text: string, value: string): boolean {
  const glued = (char: string): boolean => /[\w"]/.test(char);
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + value.length);
    const open = !glued(value.charAt(0)) || !glued(before);
    const close = !glued(value.charAt(value.length - 1)) || !glued(after);
    if (open && close) return true;
  }
  return false;
}

/** `text` with every quote written as `"`, so either quoting style of a value is found. */
function sameQuotes(text: string): string {
  return text.replace(/['"`]/g, '"');
}

/** `forms` without repeats, briefest first. */
function distinct(forms: readonly string[]): string[] {
  return forms.filter((form, index) => form !== "" && forms.indexOf(form) === index);
}

/**
 * The error's words cut to `MAX_BRIEF_NOTE`, with the values they quote elided first when they
 * are longer: what is left names the kind of check.
 */
function briefNote(message: string, values: readonly string[]): string {
  const note = codePointLength(message) <= MAX_BRIEF_NOTE ? message : kindOfCheck(message, values);
  if (note !== message && codePointLength(note) > MAX_BRIEF_NOTE) return "";
  return truncateCodePoints(note, MAX_BRIEF_NOTE);
}

/**
 * Words that only label values; a message made of them and the values repeats the values —
 * pytest's `assert '13th' == '13rd'` too, once the pair is shown.
 */
const VALUE_LABELS: ReadonlySet<string> = new Set([
  "expected",
  "received",
  "actual",
  "got",
  "have",
  "want",
  "assert",
]);

/**
 * `text` without the quoted sides the runner shortened (pytest's `'/%2521%2522%...5ah%2512%25ff'`):
 * they are values, not words of the check.
 */
function withoutRunnerCuts(text: string): string {
  let result = "";
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    const end = char === "'" || char === '"' ? quotedEnd(text, at) : -1;
    if (end < 0) {
      result += char;
      at += 1;
      continue;
    }
    const quoted = text.slice(at, end);
    result += quoted.includes("...") ? " " : quoted;
    at = end;
  }
  return result;
}

/**
 * Whether `message` has words of its own beyond the values it quotes (`Expected: 4` has none,
 * nor a generic `AssertionError:` before them) and is not the test's own name (TAP names an
 * assertion by its message).
 */
function saysMoreThan(message: string, failure: Failure): boolean {
  if (message === "" || (failure.test?.includes(withoutErrorName(message)) ?? false)) return false;
  const values = [failure.expected ?? "", failure.received ?? ""].filter((value) => value !== "");
  const rest = values.reduce(
    (text, value) => text.replaceAll(oneLine(value), " "),
    withoutRunnerCuts(withoutErrorName(message)),
  );
  return (rest.match(/[a-z]{2,}/gi) ?? []).some((word) => !VALUE_LABELS.has(word.toLowerCase()));
}

/** The package path before an error's class at the start of its words (`java.lang.`). */
const QUALIFIED_ERROR = /^(?:[a-z_][\w$]*\.)+(?=[A-Z][\w$]*(?::|$))/;

/** Words that label a side or tell what was checked: a message holding one is more than a pair. */
const LABEL_WORDS = /\b(?:got|want|wanted|expected|actual|received|but|should)\b/i;

/**
 * Whether an error's words are nothing but two printed sides, `first != second` (unittest's
 * `assertEqual`, each side shortened as it likes: `{'ent[102 chars]er': False…} != {…}`): they
 * are values, not a kind of check, and the pair an item shows is what the sides differ in.
 */
export function isBarePair(message: string): boolean {
  const text = withoutErrorName(message);
  const at = text.indexOf(" != ");
  return (
    at > 0 &&
    at === text.lastIndexOf(" != ") &&
    at + " != ".length < text.length &&
    !LABEL_WORDS.test(text)
  );
}

/**
 * A message without a leading `AssertionError:` or bare `Error:` (with a code such as
 * `[ERR_ASSERTION]`), which every assertion failure shares and so says nothing in brief, and
 * with a qualified error named by its class (`java.lang.IllegalArgumentException` as
 * `IllegalArgumentException`): the package is the same in every failure of its kind.
 */
export function withoutErrorName(message: string): string {
  return message
    .replace(/^(?:Assertion|Failure\/)?Error(?: \[\w+\])?: (?=\S)/, "")
    .replace(QUALIFIED_ERROR, "");
}

/**
 * The two sides as an item shows them briefly: a long pair shortened to the element that
 * differs (`…"test": "undefined"…`), else whole, each on one line. A shortened pair that reads
 * the same on both sides (the difference fell outside its window) tells nothing: the pair is
 * then whole.
 */
export function shownPair(
  expected: string,
  received: string,
): { expected: string; received: string } {
  const whole = foldedPair(expected, received);
  if (codePointLength(pairText(whole)) <= MAX_WHOLE_PAIR) return whole;
  const difference = valueDifference(whole.expected, whole.received);
  return difference === undefined || difference.expected === difference.received
    ? whole
    : difference;
}

/** `want X, got Y`. */
function comparison(expected: string, received: string): string {
  return pairText(foldedPair(expected, received));
}

/**
 * `want X, got Y` of sides already on one line each. A side that ends with the comma the runner
 * printed (a line of an object, `"color": "white",`) keeps it as printed and lends it to the
 * separator, never `,,`.
 */
function pairText({ expected, received }: { expected: string; received: string }): string {
  return `want ${expected}${expected.endsWith(",") ? "" : ","} got ${received}`;
}

/**
 * Both sides on one line each: folded (`oneLine`), unless folding makes them alike — they differ
 * only in line breaks, blank lines or indentation, which is then the whole bug (a formatter's
 * missing empty line) — when each keeps its line breaks as `\n` and its indentation below the
 * indentation both share; two single lines that differ only in the spaces around them are
 * quoted whole (`"        1"`, `"  1"`), or the difference would not show.
 */
export function foldedPair(
  expected: string,
  received: string,
): { expected: string; received: string } {
  const folded = { expected: oneLine(expected), received: oneLine(received) };
  if (folded.expected !== folded.received || expected === received) return folded;
  if (!expected.includes("\n") && !received.includes("\n")) {
    return { expected: JSON.stringify(expected), received: JSON.stringify(received) };
  }
  const lines = [expected, received].map((side) => side.split("\n").map((line) => line.trimEnd()));
  const indent = Math.min(
    ...lines.flat().flatMap((line) => (line === "" ? [] : [line.length - line.trimStart().length])),
  );
  const [shownExpected = "", shownReceived = ""] = lines.map((side) =>
    side.map((line) => line.slice(indent)).join("\\n"),
  );
  return shownExpected === shownReceived
    ? folded
    : { expected: shownExpected, received: shownReceived };
}
