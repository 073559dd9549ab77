import { describe, expect, it } from "vitest";
import { RUNNER_OUTPUTS } from "../../../test-support/runner-outputs.js";
import { attemptRecords } from "../attempt-record.js";
import { findPattern } from "../detect-pattern.js";
import { failing } from "../test-support/seed-attempts.js";

/** Failing attempts 1, 2, … with these outputs, oldest first. */
const attempts = (...outputs: string[]) =>
  outputs.map((output, index) => failing(index + 1, output));

describe.each(RUNNER_OUTPUTS)(
  "patterns a to c on $runner output",
  ({ oneFailure, otherFailure, typeMismatch }) => {
    it.skipIf(typeMismatch === null)("a) names the field printed in two types", () => {
      const pattern = findPattern(attemptRecords(attempts(otherFailure, typeMismatch ?? "")));
      expect(pattern?.kind).toBe("type-mismatch");
      expect(pattern?.description).toMatch(/^(userId|user_id) format mismatch between /);
    });

    it("b) is stuck on the same failure repeated", () => {
      const pattern = findPattern(attemptRecords(attempts(otherFailure, oneFailure, oneFailure)));
      expect(pattern?.kind).toBe("repeated-failure");
      expect(pattern?.description).toMatch(
        /^Stuck on ".+" since iteration 2 \(2 attempts in a row\)$/,
      );
    });

    it("c) oscillates between two failures", () => {
      const four = attempts(oneFailure, otherFailure, oneFailure, otherFailure);
      expect(findPattern(attemptRecords(four))?.kind).toBe("oscillation");
    });
  },
);
