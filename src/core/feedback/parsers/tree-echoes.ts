import type { Failure } from "../feedback.js";

/** Separators a runner's tree and its detailed report may join one test's suite path with. */
const SEPARATORS = / (?:›|>) /g;

/**
 * `failures` without the bare names a runner's progress tree echoes (Jest `--verbose`'s
 * `✕ parses ids`, Mocha's list reporter's `1) cart parses ids`) when a detailed report of the
 * same test is there too. The tree prints the test under its file, the report where it threw,
 * so the general merge, which keeps failures in different files apart, cannot join them.
 */
export function withoutTreeEchoes(failures: readonly Failure[]): Failure[] {
  const detailed = failures.filter((failure) => !isBare(failure)).map((failure) => spaced(failure));
  return failures.filter((failure) => {
    if (!isBare(failure) || failure.test === null) return true;
    const name = spaced(failure);
    return !detailed.some((other) => other === name || other.endsWith(` ${name}`));
  });
}

/** Whether a failure carries nothing but a name and perhaps its file. */
function isBare(failure: Failure): boolean {
  return (
    failure.message === "" &&
    failure.line === null &&
    failure.expected === null &&
    failure.received === null
  );
}

/** A failure's name with its suite separators read as spaces. */
function spaced(failure: Failure): string {
  return (failure.test ?? "").replace(SEPARATORS, " ");
}
