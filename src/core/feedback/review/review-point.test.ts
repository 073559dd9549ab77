import { describe, expect, it } from "vitest";
import {
  byPriority,
  pointMessage,
  reviewPointText,
  toolMessage,
  type ReviewPoint,
} from "./review-point.js";

const point = (overrides: Partial<ReviewPoint>): ReviewPoint => ({
  path: null,
  line: null,
  priority: "medium",
  message: "m",
  label: null,
  ...overrides,
});

describe("reviewPointText", () => {
  it.each([
    [point({}), "m"],
    [point({ label: "nit" }), "nit: m"],
    [point({ path: "a.ts", line: 3, label: "eqeqeq" }), "a.ts:3 eqeqeq: m"],
    [point({ path: "a.ts" }), "a.ts m"],
    [point({ path: "a.ts", line: 3, message: "a.ts:3:7 leaks" }), "a.ts:3:7 leaks"],
    [
      point({ path: "a.ts", line: 3, message: `${"x ".repeat(30)}a.ts:3` }),
      `a.ts:3 ${"x ".repeat(30).trim()}`,
    ],
    [point({ path: "a.py", line: 57, message: "a.py line 57: joined" }), "a.py:57 joined"],
    [
      point({ path: "a.py", line: 57, message: "a.py, line 58: joined" }),
      "a.py:57 a.py, line 58: joined",
    ],
    [point({ path: "a.sh", line: 6, message: "floor. (a.sh:6)" }), "a.sh:6 floor."],
  ])("renders %j", (input, text) => {
    expect(reviewPointText(input)).toBe(text);
  });
});

describe("byPriority", () => {
  it("puts high first and keeps the reviewer's order within a priority", () => {
    const points = [
      point({ message: "1", priority: "low" }),
      point({ message: "2", priority: "high" }),
      point({ message: "3" }),
      point({ message: "4", priority: "high" }),
    ];
    expect(byPriority(points).map((each) => each.message)).toEqual(["2", "4", "3", "1"]);
  });
});

describe("pointMessage", () => {
  it("collapses whitespace and bounds pasted data", () => {
    expect(pointMessage("  a\n\tb  ")).toBe("a b");
    expect([...pointMessage("y".repeat(50_000))]).toHaveLength(1000);
  });
});

describe("toolMessage", () => {
  it("drops only the rule echoed at the very end", () => {
    expect(toolMessage("Unexpected  unit (length-zero-no-unit)", "length-zero-no-unit")).toBe(
      "Unexpected unit",
    );
    expect(toolMessage("See (no-undef) above", "no-undef")).toBe("See (no-undef) above");
    expect(toolMessage("(no-undef)", "no-undef")).toBe("(no-undef)");
    expect(toolMessage("x (a)", null)).toBe("x (a)");
  });
});
