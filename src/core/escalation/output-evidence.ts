import { assertionFrames, type FrameLine } from "./assertion-target.js";

/** Two printed sides of a comparison. */
export interface Sides {
  readonly expected: string;
  readonly received: string;
}

/** What the reason and pattern readers look up in a test output, read once per attempt. */
export interface OutputEvidence {
  /** Code-frame lines that hold an assertion. */
  readonly frames: readonly FrameLine[];
  /** The `-`/`+` sides of the output's value diff, or null when it shows none. */
  readonly diff: Sides | null;
}

/** Diff headers, which are no values: `- Expected  - 1`, `+ Received  + 1`, `--- a/x`. */
const DIFF_HEADER = /^(?:- Expected|\+ Received|---|\+\+\+)/;

/** The `-` (expected) and `+` (received) lines of a Jest or pytest value diff, each side joined. */
function diffSides(output: string): Sides | null {
  const expected: string[] = [];
  const received: string[] = [];
  for (const line of output.split("\n")) {
    const trimmed = line.trim();
    if (DIFF_HEADER.test(trimmed)) continue;
    // Trailing commas belong to the printed object, not to the value.
    const value = trimmed.slice(1).trim().replace(/,$/, "");
    if (trimmed.startsWith("- ")) expected.push(value);
    else if (trimmed.startsWith("+ ")) received.push(value);
  }
  return expected.length > 0 && received.length > 0
    ? { expected: expected.join("\n"), received: received.join("\n") }
    : null;
}

/** Reads an output's assertion frames and value diff once, however many failures consult them. */
export function outputEvidence(output: string): OutputEvidence {
  return { frames: assertionFrames(output), diff: diffSides(output) };
}
