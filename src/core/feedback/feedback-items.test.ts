import { describe, expect, it } from "vitest";
import type { Failure } from "./feedback.js";
import { failureItem } from "./feedback-items.js";

const failure = (overrides: Partial<Failure>): Failure => ({
  test: "login returns a token",
  file: "src/login.test.ts",
  line: 12,
  expected: "123",
  received: '"123"',
  message: "",
  ...overrides,
});

describe("failureItem", () => {
  it("puts where first, then the values", () => {
    expect(failureItem(failure({}))).toBe(
      'src/login.test.ts:12 login returns a token: expected 123, received "123"',
    );
  });

  it("keeps the error's own words beside the values: they name the kind of check", () => {
    expect(failureItem(failure({ message: "Expected values to be strictly equal:" }))).toBe(
      'src/login.test.ts:12 login returns a token: expected 123, received "123" (Expected values to be strictly equal:)',
    );
  });

  it("leaves out a message that only repeats the values", () => {
    expect(failureItem(failure({ message: 'Expected: 123\nReceived: "123"' }))).toBe(
      'src/login.test.ts:12 login returns a token: expected 123, received "123"',
    );
  });

  it("cuts long words short so the values still lead", () => {
    const item = failureItem(failure({ message: `toBe ${"x".repeat(200)}` }));
    expect(item.length).toBeLessThan(140);
    expect(item.endsWith("…)")).toBe(true);
  });

  it("uses the message when the values are unknown", () => {
    expect(failureItem(failure({ expected: null, received: null, message: "boom" }))).toBe(
      "src/login.test.ts:12 login returns a token: boom",
    );
  });
});
