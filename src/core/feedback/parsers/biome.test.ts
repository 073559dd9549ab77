import { describe, expect, it } from "vitest";
import { biomeParser } from "./biome.js";
import { failureOf } from "../failure-of.js";

const check = `src/a.ts:3:7 lint/suspicious/noDoubleEquals  FIXABLE  ━━━━━━━━━━━━━━━━━━━━

  × Using == may be unsafe if you are relying on type coercion.

  > 3 │ if (a == b) {}
      │       ^^

  i == is only allowed when comparing against null.

src/b.ts:1:10 lint/suspicious/noExplicitAny ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  ⚠ Unexpected any. Specify a different type.

src/b.ts format ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  × Formatter would have printed the following content:

Checked 2 files in 3ms. No fixes applied.
Found 2 errors.
Found 1 warning.
check ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  × Some errors were emitted while running checks.
`;

describe("biomeParser", () => {
  it("reads each diagnostic's place, category and first message, not the closing block", () => {
    expect(biomeParser.detect(check)).toBe(true);
    expect(biomeParser.parse(check)).toEqual([
      failureOf({
        file: "src/a.ts",
        line: 3,
        column: 7,
        rule: "lint/suspicious/noDoubleEquals",
        message: "Using == may be unsafe if you are relying on type coercion.",
      }),
      failureOf({
        file: "src/b.ts",
        rule: "format",
        message: "Formatter would have printed the following content:",
      }),
      failureOf({
        file: "src/b.ts",
        line: 1,
        column: 10,
        rule: "lint/suspicious/noExplicitAny",
        message: "Unexpected any. Specify a different type.",
      }),
    ]);
    expect(biomeParser.reportedFailures?.(check)).toBe(3);
  });

  it("needs Biome's closing lines, not just a heavy rule", () => {
    expect(biomeParser.detect("Report ━━━━━━━━━━━━\n  × nope\n")).toBe(false);
    expect(biomeParser.reportedFailures?.("nothing\n")).toBeNull();
  });
});
