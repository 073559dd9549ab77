import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRuns, fuzzSeed } from "../../test-support/hostile/fuzz-runs.js";
import { HAND_SHAPES, textOf } from "../../test-support/hostile/shape.js";
import { codePointLength, toWellFormed } from "./clean/code-points.js";
import type { Feedback, TestFeedback } from "./feedback.js";
import { reviewFeedback } from "./review-feedback.js";
import { testFeedback } from "./test-feedback.js";

/** Pieces real logs and reviews are made of, and pieces that break parsers: shuffled, they are adversarial text. */
const PIECES = [
  "FAIL src/a.test.ts > suite > test",
  " ✓ passes",
  " × fails [ chromium ]",
  "AssertionError: expected 3 to be 4",
  "Expected: 4",
  "Received: 3",
  "    at Object.<anonymous> (src/a.test.ts:6:13)",
  "not ok 1 - test",
  "  ---",
  "  ...",
  "E   assert 1 == 2",
  "____ test_x ____",
  "thread 'main' panicked at src/lib.rs:3:5:",
  "--- FAIL: TestX (0.00s)",
  '{"status": "failed", "numFailedTests": 1, "testResults": [',
  '<testsuite><testcase name="x"><failure message="boom">',
  "- [blocking] src/a.ts:3 must not do this",
  "issue (blocking): fix it",
  "nit: rename",
  '{"runs": [{"results": [{"level": "error", "message": {"text": "x"}}]}]}',
  '{"diagnostics": [{"message": "x", "location": {"path": "a.ts"}}]}',
  "eyJa-eyJb.eyJc",
  "-----BEGIN RSA PRIVATE KEY-----",
  "password=hunter2",
  "\u001b[31m",
  "\u001b]0;title\u0007",
  "\u009b1m",
  "\r",
  "\u0000",
  "\ud800",
  "é中😀",
  "\u202e",
  "",
];

/** Text that looks like a log or a review, broken anywhere. */
const adversarial = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((lines) => lines.join("\n")),
  fc
    .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 20 })), {
      maxLength: 40,
    })
    .map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 2_000 }),
  fc
    .tuple(fc.constantFrom(...HAND_SHAPES), fc.integer({ min: 1, max: 20_000 }))
    .map(([shape, length]) => textOf(shape, length)),
);

// eslint-disable-next-line no-control-regex -- no control character may reach the feedback
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** What every feedback promises, whatever it was made from. */
function expectWellFormed(feedback: Feedback, maxLength: number): void {
  const length =
    codePointLength(feedback.summary) +
    feedback.actionableItems.reduce((sum, item) => sum + codePointLength(item), 0);
  expect(length).toBeLessThanOrEqual(maxLength);
  expect(["high", "medium", "low"]).toContain(feedback.priority);
  for (const text of [feedback.summary, ...feedback.actionableItems]) {
    expect(text).not.toMatch(CONTROL);
    expect(toWellFormed(text)).toBe(text);
  }
}

const maxLength = fc.oneof(
  fc.integer({ min: 1, max: 40 }),
  fc.constant(500),
  fc.integer({ min: 1, max: 5_000 }),
);

describe("feedback on random and adversarial text (fuzz)", () => {
  it("testFeedback never throws, keeps the cap and passes on no control character", () => {
    fc.assert(
      fc.property(adversarial, maxLength, (output, cap) => {
        const feedback: TestFeedback = testFeedback(output, { maxLength: cap });
        expectWellFormed(feedback, cap);
        for (const failure of feedback.failures) {
          for (const field of [
            failure.test,
            failure.file,
            failure.expected,
            failure.received,
            failure.message,
          ]) {
            if (field !== null) expect(field).not.toMatch(CONTROL);
          }
        }
      }),
      { numRuns: fuzzRuns(300), ...fuzzSeed() },
    );
  }, 600_000);

  it("reviewFeedback never throws, keeps the cap and passes on no control character", () => {
    fc.assert(
      fc.property(adversarial, maxLength, (review, cap) => {
        expectWellFormed(reviewFeedback(review, { maxLength: cap }), cap);
      }),
      { numRuns: fuzzRuns(300), ...fuzzSeed() },
    );
  }, 600_000);
});
