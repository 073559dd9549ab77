import { describe, expect, it } from "vitest";
import type { TestOutputParser } from "./feedback.js";
import { readTestResult } from "./read-test-result.js";
import { fitTestRead, testFeedback } from "./test-feedback.js";

const OUTPUT = [
  "\u001b[31mFAIL\u001b[39m src/auth/login.test.ts",
  "  ● login › returns a token",
  "    Expected: token to contain userId",
  "    Received: undefined",
  "      at Object.<anonymous> (src/auth/login.test.ts:14:5)",
  "",
].join("\n");

describe("readTestResult", () => {
  it("reads the result read last once, and another result or parser set again", () => {
    let reads = 0;
    const counting: TestOutputParser = {
      name: "counting",
      detect: () => {
        reads += 1;
        return false;
      },
      parse: () => [],
    };
    const parsers = [counting];
    const result = { status: "fail", output: OUTPUT } as const;
    const first = readTestResult(result, parsers);
    expect(readTestResult(result, parsers)).toBe(first);
    expect(reads).toBe(1);
    const other = { ...result };
    readTestResult(other, parsers);
    expect(reads).toBe(2);
    readTestResult(other, [counting]);
    expect(reads).toBe(3);
    // Only the last is remembered: the first is read again.
    readTestResult(result, parsers);
    expect(reads).toBe(4);
  });

  it("gives the cleaned output and, fitted to any cap, the feedback testFeedback gives", () => {
    const result = { status: "fail", output: OUTPUT } as const;
    const { output, read } = readTestResult(result);
    expect(output).not.toContain("\u001b[");
    for (const cap of [60, 200, 500]) {
      expect(fitTestRead(read, cap)).toEqual(
        testFeedback(OUTPUT, { maxLength: cap, testsFailed: true }),
      );
    }
  });
});
