import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../runner/test-support/built-cli.js";
import { growthLimits } from "../test-support/hostile/growth.js";
import { HAND_SHAPES, textOf, type Shape } from "../test-support/hostile/shape.js";

const BIN = fileURLToPath(new URL("../../bin/loopgate.js", import.meta.url));

/**
 * The shapes as whole commands read them: `feedback` on a test log and on a review,
 * `decide` with the shape as the test output and the review's feedback. Sizes are ten times the
 * regex test's (100 K against 1 M code units; 10 M against 100 M under npm run fuzz would not
 * fit a document, so fuzz runs 1 M against 10 M), as a process costs more than a scan.
 */
const limits = growthLimits();
const SMALL = Math.min(limits.small * 5, 1_000_000);
/** A process's start dominates at these sizes: times under this are not growth. */
const FLOOR_MS = 3_000;
const MAX_RATIO = 20;

// The red team's shapes and the unterminated escapes in the default suite; every hand shape in
// a long run.
const DEFAULT_SHAPES = new Set([
  '"eyJa-" repeated (a JWT that never gets its dots)',
  "PEM BEGIN without END, repeated",
  "PEM BEGIN without END on one line",
  "a two-byte character on one line",
  "unterminated CSI",
  "unterminated OSC",
  "stack frame prefix repeated",
]);
const SHAPES =
  process.env.LOOPGATE_GROWTH_SMALL === undefined
    ? HAND_SHAPES.filter((shape) => DEFAULT_SHAPES.has(shape.name))
    : HAND_SHAPES;

// Redaction reads these through patterns being rewritten for linear time on their own branch
// (issue 9, deliverable 1): quadratic today (`feedback --kind review` on 1 M of "eyJa-" takes
// minutes). They join this check when that lands.
const PENDING = new Set([
  '"eyJa-" repeated (a JWT that never gets its dots)',
  "PEM BEGIN without END, repeated",
  "PEM BEGIN without END on one line",
]);

interface Reading {
  readonly name: string;
  readonly args: readonly string[];
  readonly input: (text: string) => string;
  /** Whether the reading goes through redaction's patterns whole (not cut to lines first). */
  readonly redacts: boolean;
}

const READINGS: readonly Reading[] = [
  { name: "feedback on a test log", args: ["feedback"], input: (text) => text, redacts: false },
  {
    name: "feedback on a review",
    args: ["feedback", "--kind", "review", "--max-input-bytes", "100000000"],
    input: (text) => text,
    redacts: true,
  },
  {
    name: "decide on a failed test and a rejecting review",
    args: ["decide", "--json", "--max-input-bytes", "100000000"],
    input: (text) =>
      JSON.stringify({
        iteration_check: {
          task_id: "t",
          current_iteration: 1,
          max_iterations: 3,
          test_result: { status: "fail", output: text },
          review_result: { status: "reject", feedback: text },
        },
      }),
    redacts: true,
  },
];

/** How long one command takes on the shape at `length`, or null when it ran past `deadline`. */
function timed(reading: Reading, shape: Shape, length: number, deadline: number): number | null {
  const input = reading.input(textOf(shape, length));
  const started = performance.now();
  const run = spawnSync(process.execPath, [BIN, ...reading.args], {
    input,
    encoding: "utf8",
    timeout: Math.ceil(deadline),
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (run.error !== undefined || run.signal !== null) return null;
  expect(run.status, run.stderr.slice(0, 300)).toBe(0);
  return ms;
}

beforeAll(requireBuild);

describe("whole commands grow linearly on the hostile shapes", () => {
  const cases = READINGS.flatMap((reading) =>
    SHAPES.filter((shape) => !(reading.redacts && PENDING.has(shape.name))).map(
      (shape) => [`${reading.name}: ${shape.name}`, reading, shape] as const,
    ),
  );
  it.each(cases)(
    "%s",
    (_name, reading, shape) => {
      const small = timed(reading, shape, SMALL, 120_000);
      expect(small, "the smaller input alone ran past 120 s").not.toBeNull();
      const deadline = Math.max(MAX_RATIO * (small ?? 0), FLOOR_MS);
      const large = timed(reading, shape, SMALL * 10, deadline * 1.5);
      const growth = `${Math.round(small ?? 0)} ms at ${SMALL}, ${large === null ? "over" : Math.round(large)} ms at ${SMALL * 10}`;
      expect(large !== null && large <= deadline, growth).toBe(true);
    },
    600_000,
  );
});

describe("10 MB of a two-byte character on one line (the red team's crash)", () => {
  it.each(READINGS.map((reading) => [reading.name, reading] as const))(
    "%s: read, not a RangeError",
    (_name, reading) => {
      const shape = HAND_SHAPES.find(
        (candidate) => candidate.name === "a two-byte character on one line",
      );
      if (shape === undefined) throw new Error("the shape is missing");
      expect(timed(reading, shape, 10_000_000, 300_000)).not.toBeNull();
    },
    600_000,
  );
});
