import { describe, expect, it } from "vitest";
import { ctrfParser } from "./ctrf.js";

const report = JSON.stringify({
  reportFormat: "CTRF",
  specVersion: "0.0.0",
  results: {
    tool: { name: "jest" },
    summary: {
      tests: 4,
      passed: 1,
      failed: 2,
      pending: 1,
      skipped: 0,
      other: 0,
      start: 0,
      stop: 1,
    },
    tests: [
      { name: "sums", status: "passed", duration: 1 },
      {
        name: "returns a numeric id",
        suite: ["login", "token"],
        status: "failed",
        duration: 3,
        message: 'expect(received).toBe(expected)\n\nExpected: 123\nReceived: "123"',
        trace: "at Object.<anonymous> (test/login.test.js:12:5)",
        filePath: "test/login.test.js",
        line: 10,
      },
      { name: "later", status: "pending", duration: 0 },
      {
        name: "throws",
        status: "failed",
        duration: 1,
        message: "TypeError: x is not a function",
        filePath: "test/other.test.js",
        line: 4,
      },
    ],
  },
});

describe("ctrfParser", () => {
  it("reads failed tests with their suite path, place, values and words; nothing else", () => {
    expect(ctrfParser.detect(report)).toBe(true);
    expect(ctrfParser.parse(report)).toEqual([
      {
        test: "login > token > returns a numeric id",
        file: "test/login.test.js",
        line: 12,
        expected: "123",
        received: '"123"',
        message: "expect(received).toBe(expected)",
      },
      {
        test: "throws",
        file: "test/other.test.js",
        line: 4,
        expected: null,
        received: null,
        message: "TypeError: x is not a function",
      },
    ]);
    expect(ctrfParser.reportedFailures?.(report)).toBe(2);
  });

  it("does not take other JSON for a CTRF report", () => {
    expect(ctrfParser.detect('{"results": []}')).toBe(false);
    expect(ctrfParser.detect('{"stats": {}, "results": {"tests": []}}')).toBe(false);
    expect(ctrfParser.detect("not json")).toBe(false);
  });
});
