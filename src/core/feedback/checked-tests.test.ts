import { describe, expect, it } from "vitest";
import { checkedTests } from "./checked-tests.js";
import { failureOf } from "./failure-of.js";
import { testFeedback } from "./test-feedback.js";

const check = (test: string | null, line: number) =>
  failureOf({ test, file: "snake_test.go", line, message: `check at ${line}` });

describe("checkedTests", () => {
  it("counts the tests when the runner counts fewer than the failures and their names agree", () => {
    const failures = [check("TestA", 1), check("TestB", 2), check("TestB", 3), check("TestC", 4)];
    expect(checkedTests(failures, 3)).toBe(3);
    // The runner's count stands even when some of its tests were not read.
    expect(checkedTests([check("TestB", 2), check("TestB", 3)], 1)).toBe(1);
  });

  it("is null when each failure is a test, or the names say more tests than the runner counts", () => {
    const failures = [check("TestA", 1), check("TestB", 2), check(null, 3)];
    expect(checkedTests(failures, 3)).toBeNull();
    expect(checkedTests(failures, 5)).toBeNull();
    expect(checkedTests(failures, null)).toBeNull();
    expect(checkedTests(failures, 2)).toBeNull();
    expect(checkedTests([check(null, 1), check(null, 2)], 1)).toBeNull();
  });

  it("makes the summary count go's failed tests, their t.Errorf lines as checks (strcase)", () => {
    const output = `--- FAIL: TestToCamel (0.00s)
    camel_test.go:51: "numbers2And55with000" ("Numbers2And55with000" != "Numbers2And55With000")
--- FAIL: TestToSnake (0.00s)
    snake_test.go:65: " Test Case" ("_test_case" != "test_case")
    snake_test.go:65: "Test Case " ("test_case_" != "test_case")
--- FAIL: TestToSnakeWithIgnore (0.00s)
    snake_test.go:112: " Test Case" ("_test_case" != "test_case")
FAIL
FAIL	github.com/iancoleman/strcase	0.250s
FAIL
`;
    const feedback = testFeedback(output, { maxLength: 2000 });
    expect(feedback.summary).toMatch(/^Test failed: 3 failing tests \(4 checks\) in 2 files/);
    // One item per pair: the same pair in two tests is one cause, another pair its own.
    expect(feedback.actionableItems).toHaveLength(3);
    expect(feedback.actionableItems[1]).toContain("TestToSnakeWithIgnore");
    expect(feedback.actionableItems[2]).toContain('("test_case_" != "test_case")');
  });
});
