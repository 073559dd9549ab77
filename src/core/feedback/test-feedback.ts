import { stripAnsi } from "./clean/ansi.js";
import { builtinParsers } from "./parsers/builtin-parsers.js";
import {
  codePointLength,
  ELLIPSIS,
  toWellFormed,
  truncateCodePoints,
} from "./clean/code-points.js";
import type { Failure, TestFeedback, TestOutputParser } from "./feedback.js";
import { failureGist, withoutErrorName } from "./fit/feedback-items.js";
import { kindOfCheck } from "./fit/kind-of-check.js";
import { oneLine } from "../one-line.js";
import { groupByRootCause, type FailureGroup } from "./fit/failure-groups.js";
import { fitFeedback, type FittedFeedback } from "./fit/fit-feedback.js";
import { fitTestItems } from "./fit/fit-test-items.js";
import { stripLinePrefixes } from "./clean/line-prefixes.js";
import { withoutProjectRoot } from "./clean/project-root.js";
import { redact } from "../redaction/redaction.js";
import { readFailures, type ReadFailures } from "./read-failures.js";
import { readWithReports } from "./reports/with-reports.js";
import { checkedTests } from "./checked-tests.js";

/** Causes that get an item at the default cap; the rest are counted. */
const MAX_ITEMS = 20;
/**
 * Code points of cap per cause listed beyond `MAX_ITEMS`: a caller who raises the cap far
 * (`--max-length 20000`) asks to see more causes, not the same twenty with room to spare.
 */
const CAP_PER_ITEM = 50;
/** The share of the cap a summary of several causes may take: the items say what each is. */
const SUMMARY_SHARE = 0.3;
/**
 * The most a summary of several causes may take however large the cap: a headline's count and
 * one or two shared kinds fit in it, and the room beyond serves the items' places and values.
 */
const MAX_SUMMARY_ROOM = 100;
/** Kinds of check a summary names, so it never crowds out the items. */
const MAX_SHARED_KINDS = 1;
/** Longest kind of check in a summary. */
const MAX_KIND_LENGTH = 64;
/** Fewest words of a shared ending that name a kind of check. */
const MIN_ENDING_WORDS = 3;
/** Kinds compared for shared endings: the first causes are the ones the summary speaks for. */
const MAX_ENDING_KINDS = 40;
/** Longest gist in a summary, so the summary never crowds out the items' facts. */
const MAX_GIST_LENGTH = 120;

/** Options for `testFeedback`. */
export interface TestFeedbackOptions {
  /** Cap on `summary` plus all items, in code points (SPEC §3 `feedback_max_length`). */
  readonly maxLength: number;
  /**
   * Per-runner parsers tried in order before the general extractor: `builtinParsers` when
   * omitted, one parser to force a runner (`--runner NAME`), `[]` for the general extractor only.
   */
  readonly parsers?: readonly TestOutputParser[];
  /**
   * The caller knows the run failed (decide's `status: fail`): feedback is then never empty, and
   * lines that look like errors stand in when no parser finds a failing test. Without it, a
   * runner's parser that finds none is believed — an all-passing log yields no failures.
   */
  readonly testsFailed?: boolean;
  /**
   * Machine-readable reports the run wrote (JUnit XML, Jest/Vitest/Mocha JSON, `go test -json`,
   * TAP, CTRF): their failures come first, the output adds what they lack.
   */
  readonly reports?: readonly string[];
}

/**
 * Test output as every reader of it sees it: ANSI stripped, the prefixes a CI log or a
 * multiplexer puts before every line removed, lone surrogates replaced, paths under the
 * project's root made relative to it, credentials redacted — before anything is read, cut,
 * printed or stored.
 */
export function cleanOutput(output: string): string {
  return redact(withoutProjectRoot(toWellFormed(stripLinePrefixes(stripAnsi(output)))));
}

/**
 * Focused feedback from a failing run's output (SPEC §4): credentials redacted and ANSI stripped
 * before anything is read, failures taken from the first parser that detects the output and
 * finds any (else from the general extractor), then a summary and one item per failure fitted
 * to `maxLength`. Parsers receive that cleaned text. Test failures are always high priority.
 */
export function testFeedback(output: string, options: TestFeedbackOptions): TestFeedback {
  return fitTestRead(readTestOutput(cleanOutput(output), options), options.maxLength);
}

/** What a failing run's cleaned output says, read once: fitted to any cap by `fitTestRead`. */
export interface TestRead extends ReadFailures {
  /** The failures, their names, messages and values redacted. */
  readonly failures: readonly Failure[];
}

/**
 * The failures in cleaned output (its reports' first, when the run wrote any), redacted, before
 * any cap: what the retry feedback and an attempt's signature and reasons all read.
 */
export function readTestOutput(
  text: string,
  options: Omit<TestFeedbackOptions, "maxLength">,
): TestRead {
  const testsFailed = options.testsFailed ?? false;
  const parsers = options.parsers ?? builtinParsers;
  const parsed =
    options.reports === undefined || options.reports.length === 0
      ? readFailures(text, parsers, testsFailed)
      : readWithReports(text, options.reports.map(cleanOutput), parsers, testsFailed);
  return { ...parsed, failures: parsed.failures.map(redactFailure) };
}

/** Feedback of `maxLength` code points from what `readTestOutput` read. */
export function fitTestRead(read: TestRead, maxLength: number): TestFeedback {
  const { runner, passed, failures } = read;
  const cap = Math.max(1, Math.floor(Number.isFinite(maxLength) ? maxLength : 1));
  const fitted = passed
    ? fitFeedback(`No failing test in the ${runner} output`, [], cap)
    : fitFailures(
        failures,
        Math.max(failures.length, read.reported ?? 0),
        cap,
        checkedTests(failures, read.reported ?? null),
      );
  return { ...fitted, priority: passed ? "low" : "high", failures, runner };
}

/**
 * Summary and items for failures, `total` of them by the runner's own count: causes grouped,
 * the summary saying what the items do not (how many failed, where, the cause most of them
 * share), the items fitted part by part (`fitTestItems`), and a last item counting what no item
 * names — its room reserved first, at its longest, whenever not every failure fits.
 */
function fitFailures(
  failures: readonly Failure[],
  total: number,
  cap: number,
  tests: number | null,
): FittedFeedback {
  const groups = groupByRootCause(failures);
  const summary = truncateCodePoints(
    summarize(failures, groups, total, cap, tests),
    Math.ceil((cap * 2) / 3),
  );
  const room = cap - codePointLength(summary);
  const listed = groups.slice(0, Math.max(MAX_ITEMS, Math.floor(cap / CAP_PER_ITEM)));
  const all = fitTestItems(listed, room, summary);
  const reserve = codePointLength(restCount(total));
  if (all.covered >= total || reserve > room) return { summary, actionableItems: all.items };
  const fitted = fitTestItems(listed, room - reserve, summary);
  // Less room can show more causes (a cause's place instead of a long part): none left over
  // means nothing to count.
  if (fitted.covered >= total) return { summary, actionableItems: fitted.items };
  return { summary, actionableItems: [...fitted.items, restCount(total - fitted.covered)] };
}

/**
 * `+N more` for `count` failures whose cause no item shows: a failure of a shown cause whose
 * name did not fit is that item's (the summary counts every failing test), so `+N` never reads
 * as N causes left out when none is. The summary says whether they are failing tests or
 * findings and in how many files they all are.
 */
function restCount(count: number): string {
  return `+${count} more`;
}

/**
 * `Test failed: …` saying what the items do not: for one cause its gist (and how many tests it
 * broke); for several, how many failed and in how many files, and the cause most of them share.
 * Lines that stand in for failures nobody named are summarised by the first.
 */
function summarize(
  failures: readonly Failure[],
  groups: readonly FailureGroup[],
  total: number,
  cap: number,
  tests: number | null,
): string {
  const [first] = groups;
  if (first === undefined) return "Test failed with no output";
  const gist = (group: FailureGroup): string =>
    truncateCodePoints(failureGist(group[0]), MAX_GIST_LENGTH);
  const named = failures.some(
    (failure) => failure.test !== null || failure.file !== null || failure.rule !== undefined,
  );
  if (!named) return `Test failed: ${gist(first)}`;
  const findings = failures.every((failure) => failure.rule !== undefined);
  const noun = (count: number): string =>
    findings ? `finding${count === 1 ? "" : "s"}` : `failing test${count === 1 ? "" : "s"}`;
  // Failures that are several checks of fewer tests count the tests, the checks beside them.
  const counted =
    tests === null || findings
      ? `${total} ${noun(total)}`
      : `${tests} ${noun(tests)} (${total} checks)`;
  if (groups.length === 1 && first.length === total) {
    return total === 1 ? `Test failed: ${gist(first)}` : `Test failed: ${counted}: ${gist(first)}`;
  }
  // A thrown error's test file is where the failing test is, not the source file that threw.
  const files = new Set(
    failures.flatMap((failure) => {
      const file = failure.testLocation?.file ?? failure.file;
      return file === null ? [] : [file];
    }),
  );
  const where = files.size > 1 ? ` in ${files.size} files` : "";
  const largest = groups.reduce(
    (best, group) => (group.length > best.length ? group : best),
    first,
  );
  const cause = largest.length > 1 ? `; ${largest.length} with ${gist(largest)}` : "";
  // A kind counts every failure of it, the largest cause's too: a count that left those out
  // would say fewer failures share it than do.
  const kinds = sharedKinds(groups, !findings).map((kind) => `; ${kind.count} with ${kind.words}`);
  const head = `Test failed: ${counted}${where}`;
  const share = Math.min(Math.floor(cap * SUMMARY_SHARE), MAX_SUMMARY_ROOM);
  const room = Math.max(codePointLength(head), share);
  return [...kinds, cause].reduce(
    (summary, part) =>
      codePointLength(summary) + codePointLength(part) <= room ? summary + part : summary,
    head,
  );
}

/**
 * The kinds of check (`assertion \`left == right\` failed`, `expect(received).toBe(expected)`)
 * that several failures share, most shared first: a failure's words with its own values elided,
 * so failures with different values still share one. Said once in the summary, they need not
 * be repeated by each item; a kind only two failures share saves no room that way.
 */
function sharedKinds(
  groups: readonly FailureGroup[],
  withEndings: boolean,
): { words: string; count: number }[] {
  const counts = new Map<string, { count: number; groups: number; words: string }>();
  const kinds = groups.map((group) => kindOf(group[0]));
  const endings = withEndings
    ? sharedEndings(kinds.slice(0, MAX_ENDING_KINDS).map((kind) => kind?.words ?? ""))
    : [];
  for (const [index, group] of groups.entries()) {
    const kind = kinds[index];
    if (kind === undefined || kind === null) continue;
    const ending = endings.find((tail) => kind.words.endsWith(` ${tail}`));
    const ended = ending === undefined ? [] : [{ key: `… ${ending}`, words: `… ${ending}` }];
    for (const { key, words } of [kind, ...ended]) {
      const known = counts.get(key) ?? { count: 0, groups: 0, words };
      counts.set(key, {
        count: known.count + group.length,
        groups: known.groups + 1,
        // The fuller way of saying one kind: with the error's name where the run prints it.
        words: known.words.length >= words.length ? known.words : words,
      });
    }
  }
  return [...counts.values()]
    .filter(({ count, groups: shared }) => shared > 1 && count > 2)
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_SHARED_KINDS)
    .map(({ words, count }) => ({ words, count }));
}

/**
 * The word endings of at least `MIN_ENDING_WORDS` words that kinds of check with different
 * beginnings share (`validator.isIP(…) failed but should have passed`, `validator.isPort(…) …`:
 * the call differs, the check does not), longest first; never a matcher's comment alone
 * (`// Object.is equality`), which every `toBe` prints whatever it checked.
 */
function sharedEndings(kinds: readonly string[]): string[] {
  const endings = new Set<string>();
  const split = [...new Set(kinds.filter((kind) => kind !== ""))].map((kind) => kind.split(" "));
  for (const [index, words] of split.entries()) {
    for (const other of split.slice(index + 1)) {
      let shared = 0;
      while (
        shared < Math.min(words.length, other.length) - 1 &&
        words[words.length - 1 - shared] === other[other.length - 1 - shared]
      ) {
        shared += 1;
      }
      const ending = words.slice(words.length - shared).join(" ");
      // A matcher's comment (Vitest's `// Object.is equality`) ends every check of its matcher.
      if (shared >= MIN_ENDING_WORDS && !ending.includes(ELLIPSIS) && !ending.startsWith("//"))
        endings.add(ending);
    }
  }
  return [...endings].sort((a, b) => b.length - a.length);
}

/**
 * A kind of check as a summary says it (`words`), and what tells it apart from other kinds
 * (`key`): pytest prints one `assert … == …` with its error's name and the next without, one
 * kind, said as the run says it where it names the error.
 */
interface Kind {
  readonly key: string;
  readonly words: string;
}

/**
 * A failure's kind of check: its words without the values they quote, or with its error's name
 * when they are nothing but operators; null when it has none.
 */
function kindOf(failure: Failure): Kind | null {
  const whole = oneLine(failure.message);
  const message = withoutErrorName(whole);
  if (message === "" || (failure.test?.includes(message) ?? false)) return null;
  const values = [failure.expected, failure.received].flatMap((value) =>
    value === null ? [] : [oneLine(value)],
  );
  const words = firstClause(values.length === 0 ? message : kindOfCheck(message, values));
  const key = truncateCodePoints(words, MAX_KIND_LENGTH);
  if (/[a-z]{2,}/i.test(words.replace(BARE_ASSERT, ""))) return { key, words: key };
  // Operators alone (node:assert's `NaN == 1024`, pytest's `assert … == …`): the error's name,
  // where the run prints one, says they are a failed check.
  const name = ERROR_NAME.exec(whole)?.[1];
  // node:assert's operators with no name are no kind; pytest's bare `assert` is one.
  if (name === undefined) return BARE_ASSERT.test(words) ? { key, words: key } : null;
  const named = truncateCodePoints(`${name}: ${words}`, MAX_KIND_LENGTH);
  return { key: BARE_ASSERT.test(words) ? key : named, words: named };
}

/** pytest's `assert` before a comparison it rewrote: the statement's keyword, not words of the check. */
const BARE_ASSERT = /^assert /;

/** The error's name a message starts with, its code in brackets left out. */
const ERROR_NAME = /^(\w*Error)(?: \[\w+\])?: /;

/**
 * Words too long for a kind, up to their first clause's end (`Expected … to be …` of `Expected
 * … to be …, Object({ first: 'healed', … })`): what follows is the data of one test, which would
 * keep failures of one kind apart and crowd the summary.
 */
function firstClause(words: string): string {
  if (codePointLength(words) <= MAX_KIND_LENGTH) return words;
  const end = /[,;.](?:\s|$)/.exec(words);
  return end === null || !/[a-z]{2,}/i.test(words.slice(0, end.index))
    ? words
    : words.slice(0, end.index);
}

/**
 * A parser's failure with credentials redacted and a pair whose two sides read the same dropped
 * (it says nothing of what differs: an object cut at a depth, `{ e: [Object] }` on both sides):
 * parsers are plug-ins, their output is not trusted.
 */
function redactFailure(failure: Failure): Failure {
  const optional = (value: string | null): string | null => (value === null ? null : redact(value));
  const alike = failure.expected !== null && failure.expected === failure.received;
  return {
    ...failure,
    test: optional(failure.test),
    file: optional(failure.file),
    line: failure.line,
    expected: alike ? null : optional(failure.expected),
    received: alike ? null : optional(failure.received),
    message: redact(failure.message),
    ...(failure.rule === undefined ? {} : { rule: redact(failure.rule) }),
    ...(failure.testLocation === undefined
      ? {}
      : { testLocation: { ...failure.testLocation, file: redact(failure.testLocation.file) } }),
  };
}
