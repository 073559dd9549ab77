import { describe, expect, it } from "vitest";
import { attemptRecords } from "./attempt-record.js";
import { pointedAtByFailures } from "./failure-files.js";
import { failing, SEED_ATTEMPTS } from "./test-support/seed-attempts.js";

describe("pointedAtByFailures", () => {
  it("points at the module a failing test file tests", () => {
    const pointed = pointedAtByFailures(attemptRecords(SEED_ATTEMPTS));
    expect(pointed("src/auth/login.ts")).toBe(true);
    expect(pointed("src/auth/session.ts")).toBe(false);
  });

  it("points at a file the failing output names", () => {
    const output = "TypeError: boom\n    at total (src/cart/total.js:3:9)";
    expect(pointedAtByFailures(attemptRecords([failing(1, output)]))("src/cart/total.js")).toBe(
      true,
    );
  });

  it("points at nothing when the latest attempt passed", () => {
    const passed = { ...failing(1, ""), testResult: { status: "pass", output: "ok" } } as const;
    expect(pointedAtByFailures(attemptRecords([passed]))("src/auth/login.ts")).toBe(false);
  });
});
