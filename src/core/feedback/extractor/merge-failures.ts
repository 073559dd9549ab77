import type { Failure } from "../feedback.js";
import type { DraftKind } from "./failure-draft.js";
import { isRunnerCut } from "../clean/runner-cut.js";

/** A finished failure with the kind of draft it came from. */
export interface ExtractedFailure {
  readonly failure: Failure;
  readonly kind: DraftKind;
}

/** Separators runners put between suite and test names: Vitest, Jest, pytest/cargo, Go subtests. */
const NAME_SEPARATORS: readonly string[] = [" > ", " › ", "::", "/"];

/** A failure being merged; later duplicates fill its unknown fields. */
type MergedFailure = { -readonly [Key in keyof Failure]: Failure[Key] };

/**
 * One failure per failing test, in order of first appearance. Runners name a failure several
 * times — a tree line (`× works`), a detailed block (`FAIL a.test.ts > suite > works`), a recap
 * (`FAILED a.py::works - …`) — so failures whose names match (one a suite-path suffix of the
 * other) in compatible files merge, the longer name and the first known facts winning. Suites
 * that only failed because their tests did are dropped, as are exact duplicates. Details found
 * outside any test only count when no test was named.
 */
export function mergeFailures(extracted: readonly ExtractedFailure[]): Failure[] {
  const named = extracted.filter((entry) => entry.kind !== "orphan");
  const chosen = named.length > 0 ? named : extracted;
  const hasFacts = chosen.some((entry) => entry.kind === "test" || !isBare(entry.failure));
  const relevant = chosen
    // A bare `FAIL file` header is only worth keeping when nothing more precise was found.
    .filter((entry) => !(hasFacts && entry.kind === "file" && isBare(entry.failure)))
    .map((entry) => entry.failure);
  return withoutDuplicates(withoutSuites(mergeByName(relevant)));
}

/** Whether a failure carries nothing but a name and a place. */
function isBare(failure: Failure): boolean {
  return failure.message === "" && failure.expected === null && failure.received === null;
}

/**
 * Failures whose names match by suite-path suffix, merged into the first of them that can be
 * the same report: two tests of one leaf name in two files (`node > generates large IDs`,
 * `pool pollution > generates large IDs`) each take their own recap line.
 */
function mergeByName(failures: readonly Failure[]): Failure[] {
  const kept: MergedFailure[] = [];
  const byName = new Map<string, number[]>();
  const bySuffix = new Map<string, number[]>();
  const register = (name: string, index: number): void => {
    for (const [map, key] of [
      [byName, name] as const,
      ...boundarySuffixes(name).map((suffix) => [bySuffix, suffix] as const),
    ]) {
      const known = map.get(key) ?? [];
      if (!known.includes(index)) map.set(key, [...known, index]);
    }
  };
  for (const failure of failures) {
    const name = failure.test === null ? null : nameKey(failure.test);
    const candidates = name === null ? [] : matchingIndexes(name, byName, bySuffix);
    const index = candidates.find((at) => {
      const target = kept[at];
      return target !== undefined && isSameReport(target, failure, name ?? "");
    });
    const target = index === undefined ? undefined : kept[index];
    if (name === null || index === undefined || target === undefined) {
      kept.push({ ...failure });
      if (name !== null) register(name, kept.length - 1);
      continue;
    }
    fill(target, failure);
    if (target.test !== null) register(nameKey(target.test), index);
  }
  return kept;
}

/** Whether `failure`, named `name`, can be a later report of the kept failure `target`. */
function isSameReport(target: Failure, failure: Failure, name: string): boolean {
  return (
    filesCompatible(target.file, failure.file) &&
    !elsewhereInFile(target, failure) &&
    !otherValues(target, failure) &&
    // A name the target grew into by an earlier merge (`req > .host > works`) is another test
    // than this one (`req > .hostname > works`), though both end as the tree's `works` did.
    (target.test === null || namesCompatible(nameKey(target.test), name))
  );
}

/** The kept failures a name matches, in order: same name, the name a suffix of theirs, theirs a suffix of it. */
function matchingIndexes(
  name: string,
  byName: ReadonlyMap<string, readonly number[]>,
  bySuffix: ReadonlyMap<string, readonly number[]>,
): number[] {
  const found = [
    ...(byName.get(name) ?? []),
    ...(bySuffix.get(name) ?? []),
    ...boundarySuffixes(name).flatMap((suffix) => byName.get(suffix) ?? []),
  ];
  return [...new Set(found)];
}

/** Fills what `target` does not know from a later report of the same failure. */
function fill(target: MergedFailure, other: Failure): void {
  if (other.test !== null && (target.test === null || other.test.length > target.test.length)) {
    target.test = other.test;
  }
  if (target.line === null && other.line !== null) {
    target.file = other.file;
    target.line = other.line;
    if (other.testLocation !== undefined) target.testLocation = other.testLocation;
  }
  target.file ??= other.file;
  target.expected ??= other.expected;
  target.received ??= other.received;
  if (target.message === "") target.message = other.message;
}

/**
 * Whether two reports point at different lines of one file: two assertions of one test (tape's
 * `not ok` per assertion) or two tests of one name, never one failure reported twice.
 */
function elsewhereInFile(a: Failure, b: Failure): boolean {
  return a.line !== null && b.line !== null && a.line !== b.line && a.file === b.file;
}

/**
 * Whether two reports state other values, each whole (neither cut with `…` or `...`, as a
 * recap line cuts them): two checks of one test at one line (a loop's assertions, TAP's `not ok`
 * per assertion), never one failure reported twice.
 */
function otherValues(a: Failure, b: Failure): boolean {
  const sides = [a.expected, a.received, b.expected, b.received];
  if (sides.some((side) => side === null || isRunnerCut(side))) {
    return false;
  }
  return a.expected !== b.expected || a.received !== b.received;
}

/** Emoji and the replacement characters a recap may print for them (`🤷` as `��`), in any run. */
const SYMBOLS = /[\uFFFD\p{Extended_Pictographic}]+/gu;

/**
 * A name as merging compares it: Jest's recap of failing tests can print a test's emoji as
 * replacement characters (`polygon ��` for `polygon 🤷`), so any run of either reads as one mark;
 * the joiner and presentation selector inside an emoji's sequence go first.
 */
function nameKey(name: string): string {
  return name.replaceAll("\u200D", "").replaceAll("\uFE0F", "").replace(SYMBOLS, "\uFFFD");
}

/** Whether two names can be of one test: equal, or one a suite-path suffix of the other. */
function namesCompatible(a: string, b: string): boolean {
  return a === b || boundarySuffixes(a).includes(b) || boundarySuffixes(b).includes(a);
}

/** Whether two reports can be of the same test: same file, one path a suffix of the other, or unknown. */
function filesCompatible(a: string | null, b: string | null): boolean {
  return a === null || b === null || a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/**
 * Failures that merely name a suite of another failure (node:test's `✖ suite`, TAP's
 * `2 subtests failed`) and state no values: the tests inside carry the facts.
 */
function withoutSuites(failures: readonly Failure[]): Failure[] {
  const suites = new Set<string>();
  for (const failure of failures) {
    if (failure.test !== null)
      for (const prefix of boundaryPrefixes(failure.test)) suites.add(prefix);
  }
  return failures.filter(
    (failure) =>
      failure.test === null ||
      !suites.has(failure.test) ||
      failure.expected !== null ||
      failure.received !== null ||
      !(failure.message === "" || /\bsubtests? failed\b/.test(failure.message)),
  );
}

/** Exact duplicates removed, first kept. */
function withoutDuplicates(failures: readonly Failure[]): Failure[] {
  const seen = new Set<string>();
  return failures.filter((failure) => {
    const key = JSON.stringify([
      failure.test,
      failure.file,
      failure.line,
      failure.expected,
      failure.received,
      failure.message,
      failure.column,
      failure.rule,
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every tail of a name that starts after a separator: `a > b > c` → `b > c`, `c`. */
function boundarySuffixes(name: string): string[] {
  return boundaries(name).map(({ end }) => name.slice(end));
}

/** Every head of a name that ends before a separator: `a > b > c` → `a`, `a > b`. */
function boundaryPrefixes(name: string): string[] {
  return boundaries(name).map(({ start }) => name.slice(0, start));
}

/** Where each separator occurrence in a name starts and ends. */
function boundaries(name: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const separator of NAME_SEPARATORS) {
    let at = name.indexOf(separator);
    while (at >= 0) {
      if (at > 0 && at + separator.length < name.length) {
        found.push({ start: at, end: at + separator.length });
      }
      at = name.indexOf(separator, at + separator.length);
    }
  }
  return found;
}
