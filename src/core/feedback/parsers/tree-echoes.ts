import type { Failure } from "../feedback.js";
import { withoutTrailing } from "../clean/without-trailing.js";

/** Separators a runner's tree and its detailed report may join one test's suite path with. */
const SEPARATORS = / (?:›|>) /g;

/**
 * `failures` without the bare names a runner's progress tree echoes (Jest `--verbose`'s
 * `✕ parses ids`, Mocha's list reporter's `1) cart parses ids`) when a detailed report of the
 * same test is there too, that report taking the echo's place: the tree lists the tests in the
 * order they ran. The tree prints the test under its file, the report where it threw, so the
 * general merge, which keeps failures in different files apart, cannot join them (a thrown
 * error's report would otherwise come after every report the merge joined to its echo).
 */
export function withoutTreeEchoes(failures: readonly Failure[]): Failure[] {
  const detailed = failures
    .filter((failure) => !isBare(failure))
    .map((failure) => ({ failure, name: spaced(failure) }));
  const result = new Set<Failure>();
  for (const failure of failures) {
    if (!isBare(failure) || failure.test === null) {
      result.add(failure);
      continue;
    }
    const name = spaced(failure);
    const report = detailed.find((other) => other.name === name || other.name.endsWith(` ${name}`));
    result.add(report?.failure ?? failure);
  }
  return [...result];
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

/**
 * A failure's name with its suite separators read as spaces, without a closing colon: a title
 * that ends with one (`…when the min is larger than the max:`) is echoed with it and reported
 * with Mocha's own colon after it (`…max::`), and each reading keeps a different one.
 */
function spaced(failure: Failure): string {
  return withoutTrailing((failure.test ?? "").replace(SEPARATORS, " "), ":");
}
