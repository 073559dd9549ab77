import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attemptSignature } from "./attempt-signature.js";
import { jestFailure, SEED_ATTEMPTS } from "./test-support/seed-attempts.js";

const pending = { status: "pending", feedback: "" } as const;
const noise = fc.record({
  line: fc.integer({ min: 1, max: 9999 }),
  column: fc.integer({ min: 1, max: 200 }),
  ms: fc.integer({ min: 1, max: 99999 }),
  tmp: fc.stringMatching(/^jest_[a-z0-9]{6}$/),
});

/** The signature of a failing Jest run. */
function signature(
  test: string,
  expected: string,
  received: string,
  runNoise: Parameters<typeof jestFailure>[3],
): string {
  return attemptSignature({
    testResult: { status: "fail", output: jestFailure(test, expected, received, runNoise) },
    reviewResult: pending,
  });
}

describe("attemptSignature", () => {
  it("is a 16-digit hex fingerprint", () => {
    for (const attempt of SEED_ATTEMPTS) expect(attemptSignature(attempt)).toMatch(/^[\da-f]{16}$/);
  });

  it("ignores timings, line:col positions and scratch paths", () => {
    fc.assert(
      fc.property(noise, noise, (a, b) => {
        expect(signature("adds two numbers", "4", "5", a)).toBe(
          signature("adds two numbers", "4", "5", b),
        );
      }),
    );
  });

  it("tells different failures apart", () => {
    const run = { line: 3, column: 7, ms: 12, tmp: "jest_aaaaaa" };
    const base = signature("adds two numbers", "4", "5", run);
    expect(signature("adds three numbers", "4", "5", run)).not.toBe(base);
    expect(signature("case 2", "4", "5", run)).not.toBe(signature("case 3", "4", "5", run));
    expect(signature("adds two numbers", "4", '"4"', run)).not.toBe(base);
    const signatures = SEED_ATTEMPTS.map((attempt) => attemptSignature(attempt));
    expect(new Set(signatures).size).toBe(3);
  });

  it("does not depend on the order failures are reported in", () => {
    const a = jestFailure("first", "1", "2", { line: 1, column: 1, ms: 1, tmp: "jest_aaaaaa" });
    const b = jestFailure("second", "true", "false", {
      line: 1,
      column: 1,
      ms: 1,
      tmp: "jest_aaaaaa",
    });
    const sign = (output: string) =>
      attemptSignature({ testResult: { status: "fail", output }, reviewResult: pending });
    expect(sign(`${a}\n${b}`)).toBe(sign(`${b}\n${a}`));
  });

  it("gives passing, approved, pending and rejected attempts their own signatures", () => {
    const pass = { status: "pass", output: "Tests: 4 passed (120 ms)" } as const;
    const approved = attemptSignature({
      testResult: pass,
      reviewResult: { status: "approve", feedback: "LGTM" },
    });
    const waiting = attemptSignature({ testResult: pass, reviewResult: pending });
    const reject = (feedback: string) =>
      attemptSignature({ testResult: pass, reviewResult: { status: "reject", feedback } });
    expect(new Set([approved, waiting, reject("- add tests"), reject("- rename x")]).size).toBe(4);
    expect(
      attemptSignature({
        testResult: { ...pass, output: "Tests: 4 passed (99 ms)" },
        reviewResult: { status: "approve", feedback: "ok" },
      }),
    ).toBe(approved);
    expect(reject("- Add tests\n- rename x")).toBe(reject("- rename x\n- add tests"));
  });

  it("is deterministic for any output", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (output) => {
        const attempt = { testResult: { status: "fail", output }, reviewResult: pending } as const;
        expect(attemptSignature(attempt)).toBe(attemptSignature(attempt));
      }),
    );
  });
});
