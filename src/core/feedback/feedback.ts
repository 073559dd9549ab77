/** How urgent the feedback is for the next attempt. */
export type Priority = "high" | "medium" | "low";

/** Focused feedback for the next attempt (SPEC §3): summary plus items, within the length cap. */
export interface Feedback {
  readonly summary: string;
  readonly actionableItems: readonly string[];
  readonly priority: Priority;
}

/** One failing test as a parser understood it; unknown parts are null. */
export interface Failure {
  /** Full test name, suite path included. */
  readonly test: string | null;
  readonly file: string | null;
  readonly line: number | null;
  readonly expected: string | null;
  readonly received: string | null;
  /** The error's own words (first line of the assertion or thrown error). */
  readonly message: string;
  /** The column a linter or compiler points at, when it says (`file:line:col`). */
  readonly column?: number;
  /** The lint rule or diagnostic code behind a finding (`no-unused-vars`, `TS2322`, `E501`). */
  readonly rule?: string;
  /**
   * The test's own frame when `file`/`line` point elsewhere: a thrown error's first user frame
   * is in the code under test or a shared helper, and this is the test code that called it
   * (the outermost user frame of the stack, `test/cart.test.js:9`).
   */
  readonly testLocation?: { readonly file: string; readonly line: number };
}

/** Feedback extracted from test output, with the structured failures behind it (SPEC §4). */
export interface TestFeedback extends Feedback {
  readonly failures: readonly Failure[];
  /** Name of the parser that understood the output (`generic` for the general extractor). */
  readonly runner: string;
}

/**
 * The seam per-runner parsers plug into: `detect` says whether the output is this runner's,
 * `parse` turns it into failures. Both are pure.
 */
export interface TestOutputParser {
  readonly name: string;
  readonly detect: (output: string) => boolean;
  readonly parse: (output: string) => readonly Failure[];
  /**
   * How many tests (or findings) the runner itself says failed, read from its own summary
   * (`Tests: 7 failed`, `7 failing`, `# fail 7`, `✖ 12 problems`); null when it prints none.
   * Feedback's `+N more` agrees with it.
   */
  readonly reportedFailures?: (output: string) => number | null;
}
