import { builtinParsers, parserByName } from "../core/feedback/parsers/builtin-parsers.js";
import type { TestOutputParser } from "../core/feedback/feedback.js";
import { GENERIC_RUNNER } from "../core/feedback/read-failures.js";

/** The per-runner parsers `loopgate feedback` tries in order when no runner is forced. */
export const runnerParsers: readonly TestOutputParser[] = builtinParsers;

/** A parser that recognizes nothing: `--runner generic` leaves the output to the general extractor. */
const GENERIC_ONLY: TestOutputParser = {
  name: GENERIC_RUNNER,
  detect: () => false,
  parse: () => [],
};

/** Names `--runner` accepts. */
export function runnerNames(): string[] {
  return [...builtinParsers.map((parser) => parser.name), GENERIC_RUNNER];
}

/**
 * The parser `--runner NAME` forces, reading the output whether or not it recognizes it; null
 * for an unknown name.
 */
export function forcedParser(name: string): TestOutputParser | null {
  if (name === GENERIC_RUNNER) return GENERIC_ONLY;
  const parser = parserByName(name);
  return parser === undefined ? null : { ...parser, detect: () => true };
}
