import { assertionFrames, type FrameLine } from "./assertion-target.js";

/** The key whose array a run of changed lines sits in (`"valid_false": [`), with those lines' values. */
export interface DiffHolder {
  readonly key: string;
  readonly values: readonly string[];
}

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
  /** Runs of changed lines that are elements of a keyed array or object, with that key. */
  readonly holders: readonly DiffHolder[];
}

/** A context line opening a keyed array or object: `"valid_false": [`, `ids: [`. */
const HOLDER_LINE = /^["']?([\w$@.-]{1,80})["']?\s*:\s*[[{]$/;
/** Mocha's and node:assert's headers that say which sign is which: `+ expected - actual`, `+ actual - expected`. */
const SIGNS_HEADER = /^\+ (expected|actual) - (?:actual|expected)$/i;

/** Diff headers, which are no values: `- Expected  - 1`, `+ Received  + 1`, `--- a/x`. */
const DIFF_HEADER = /^(?:- Expected|\+ Received|---|\+\+\+)/;

/**
 * The expected and received lines of a value diff, each side joined — `-` expected and `+`
 * received as Jest and pytest print them, unless a header says otherwise (Mocha's `+ expected
 * - actual`) — and the runs of changed lines that sit in a keyed array or object.
 */
function diffSides(output: string): { sides: Sides | null; holders: DiffHolder[] } {
  const expected: string[] = [];
  const received: string[] = [];
  const holders: DiffHolder[] = [];
  let plusExpected = false;
  let holder: string | null = null;
  let run: string[] = [];
  const endRun = (): void => {
    if (holder !== null && run.length > 0) holders.push({ key: holder, values: run });
    run = [];
  };
  for (const line of output.split("\n")) {
    const trimmed = line.trim();
    const signs = SIGNS_HEADER.exec(trimmed)?.[1];
    if (signs !== undefined) plusExpected = signs.toLowerCase() === "expected";
    if (signs !== undefined || DIFF_HEADER.test(trimmed)) continue;
    // Trailing commas belong to the printed object, not to the value.
    const value = trimmed.slice(1).trim().replace(/,$/, "");
    const minus = trimmed.startsWith("- ");
    if (!minus && !trimmed.startsWith("+ ")) {
      endRun();
      holder = HOLDER_LINE.exec(trimmed)?.[1] ?? (/^[\]}]/.test(trimmed) ? null : holder);
      continue;
    }
    run.push(value);
    if (minus !== plusExpected) expected.push(value);
    else received.push(value);
  }
  endRun();
  const sides =
    expected.length > 0 && received.length > 0
      ? { expected: expected.join("\n"), received: received.join("\n") }
      : null;
  return { sides, holders };
}

/** Reads an output's assertion frames and value diff once, however many failures consult them. */
export function outputEvidence(output: string): OutputEvidence {
  const { sides, holders } = diffSides(output);
  return { frames: assertionFrames(output), diff: sides, holders };
}
