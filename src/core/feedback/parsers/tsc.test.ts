import { describe, expect, it } from "vitest";
import { tscParser } from "./tsc.js";
import { failureOf } from "../failure-of.js";

describe("tscParser", () => {
  it("reads plain diagnostics with the chain of their message and the sides of an assignment", () => {
    const text = [
      "src/a.ts(13,14): error TS2322: Type '(u: { id: string; }) => string' is not assignable to type '(u: User) => string'.",
      "  Types of property 'id' are incompatible.",
      "    Type 'number' is not assignable to type 'string'.",
      "src/b.ts(2,1): error TS2304: Cannot find name 'x'.",
    ].join("\n");
    expect(tscParser.detect(text)).toBe(true);
    expect(tscParser.parse(text)).toEqual([
      failureOf({
        file: "src/a.ts",
        line: 13,
        column: 14,
        rule: "TS2322",
        expected: "'(u: User) => string'",
        received: "'(u: { id: string; }) => string'",
        message:
          "Type '(u: { id: string; }) => string' is not assignable to type '(u: User) => string'. Types of property 'id' are incompatible. Type 'number' is not assignable to type 'string'.",
      }),
      failureOf({
        file: "src/b.ts",
        line: 2,
        column: 1,
        rule: "TS2304",
        message: "Cannot find name 'x'.",
      }),
    ]);
    expect(tscParser.reportedFailures?.(text)).toBeNull();
  });

  it("reads --pretty: the code frame and related locations are not diagnostics", () => {
    const text = [
      "src/model/user.ts:8:12 - error TS2322: Type 'string' is not assignable to type 'number'.",
      "",
      "8   return { id, name };",
      "             ~~",
      "",
      "  src/model/user.ts:2:3",
      "    2   id: number;",
      "        ~~",
      "    The expected type comes from property 'id' which is declared here on type 'User'",
      "",
      "error TS5023: Unknown compiler option 'strictest'.",
      "",
      "Found 2 errors in 1 file.",
    ].join("\n");
    expect(tscParser.parse(text)).toEqual([
      failureOf({
        file: "src/model/user.ts",
        line: 8,
        column: 12,
        rule: "TS2322",
        expected: "'number'",
        received: "'string'",
        message: "Type 'string' is not assignable to type 'number'.",
      }),
      failureOf({ rule: "TS5023", message: "Unknown compiler option 'strictest'." }),
    ]);
    expect(tscParser.reportedFailures?.(text)).toBe(2);
    expect(tscParser.reportedFailures?.("Found 1 error in src/a.ts:3\n")).toBe(1);
  });

  it("does not take a test runner's output that merely mentions TS codes", () => {
    expect(tscParser.detect("  ● adds\n    expect(error TS2322).toBe(…)\n")).toBe(false);
  });
});
