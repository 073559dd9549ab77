import { describe, expect, it } from "vitest";
import type { Failure } from "../feedback/feedback.js";
import { failureReason } from "./failure-reason.js";
import { outputEvidence } from "./output-evidence.js";
import { failureOf } from "../feedback/failure-of.js";

/** The reason for a failure read against an output. */
function reason(parts: Partial<Failure>, output = ""): string {
  return failureReason(failureOf(parts), outputEvidence(output));
}

describe("failureReason", () => {
  it("reads prose expectations whatever was received", () => {
    expect(reason({ expected: "token to be defined", received: "undefined" })).toBe(
      "undefined token",
    );
    expect(reason({ expected: "token to contain userId", received: '{"sub": "ada"}' })).toBe(
      "token missing userId",
    );
    expect(reason({ expected: "token not to contain userId", received: "x" })).toBe(
      "expected token not to contain userId, received x",
    );
  });

  it("reads Jest matchers with their code frame", () => {
    const frame = '    > 14 |     expect(decodeToken(token)).toHaveProperty("userId");';
    expect(
      reason(
        { message: "expect(received).toHaveProperty(path)", expected: '"userId"', received: "[]" },
        frame,
      ),
    ).toBe("token missing userId");
    expect(
      reason(
        { message: "expect(received).toBeDefined()", received: "undefined" },
        "  > 3 | expect(session).toBeDefined()",
      ),
    ).toBe("undefined session");
    expect(reason({ message: "expect(received).not.toBeDefined()", received: "1" })).toBe(
      "expect(received).not.toBeDefined()",
    );
  });

  it("falls back to expected vs received, then to the error's own words", () => {
    expect(reason({ expected: "4", received: "5" })).toBe("expected 4, received 5");
    expect(reason({ message: "TypeError: x is not a function\n    at y" })).toBe(
      "x is not a function",
    );
    expect(reason({ test: "suite › case" })).toBe("suite › case");
  });
});
