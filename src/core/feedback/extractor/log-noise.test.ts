import { describe, expect, it } from "vitest";
import { isClosingLine, isConsoleHeader, isPassLine } from "./log-noise.js";

describe("isPassLine", () => {
  it.each([
    "✓ issues a token 3ms",
    "✔ keeps the id (0.8ms)",
    "ok 1 - keeps the id",
    "ok  \texample.com/calc\t0.002s",
    "--- PASS: TestOK (0.00s)",
    "PASS src/other.test.ts",
    "test tests::keeps_id ... ok",
  ])("knows %s passed", (line) => {
    expect(isPassLine(line)).toBe(true);
  });

  it.each(["ok, so the token is wrong", "okay", "not ok 2 - x", "× fails"])(
    "does not take %s for a pass",
    (line) => {
      expect(isPassLine(line)).toBe(false);
    },
  );
});

describe("isClosingLine", () => {
  it.each([
    "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 6 ⎯⎯⎯⎯⎯⎯⎯",
    "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/6]⎯",
    "=================================== FAILURES ===================================",
    "Test Files  2 failed (2)",
    "Tests:       1 failed, 1 passed, 2 total",
    "ℹ fail 4",
    "# tests 5",
    "1..3",
    "test result: FAILED. 1 passed; 4 failed; 0 ignored",
    "FAIL\texample.com/calc\t0.002s",
    "❯ src/auth/login.test.ts (6 tests | 5 failed) 16ms",
    "collected 7 items",
    "tests/test_token.py .FFFF.F                                              [100%]",
    "FAILED (failures=1, errors=1)",
  ])("closes on %s", (line) => {
    expect(isClosingLine(line)).toBe(true);
  });

  it.each([
    "----------------------------------------",
    "=====",
    "Expected: 1",
    "FAIL src/a.test.ts",
  ])("does not close on %s", (line) => {
    expect(isClosingLine(line)).toBe(false);
  });
});

describe("isConsoleHeader", () => {
  it("knows Jest's and Vitest's console captures", () => {
    expect(isConsoleHeader("console.error")).toBe(true);
    expect(isConsoleHeader("stderr | src/a.test.ts > works")).toBe(true);
    // Jest's heading above a file's buffered captures (several files run in workers).
    expect(isConsoleHeader("● Console")).toBe(true);
    expect(isConsoleHeader("● Console › prints")).toBe(false);
    expect(isConsoleHeader("console.error('x')")).toBe(false);
  });
});
