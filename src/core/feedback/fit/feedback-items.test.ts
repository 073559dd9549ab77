import { describe, expect, it } from "vitest";
import type { Failure } from "../feedback.js";
import { failureItem, failureItemForms } from "./feedback-items.js";

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
  it("names a lint or compiler finding by file:line:col and its rule", () => {
    const finding = failure({
      test: null,
      file: "src/index.ts",
      line: 7,
      column: 3,
      rule: "no-unused-vars",
      expected: null,
      received: null,
      message: "'x' is defined but never used.",
    });
    expect(failureItem(finding)).toBe(
      "src/index.ts:7:3 no-unused-vars: 'x' is defined but never used.",
    );
    const next = { ...finding, line: 9, column: 1 };
    expect(failureItemForms(next, finding)[0]).toBe("…:9:1 no-unused-vars");
  });

  it("follows a thrown error's place with the test's own frame", () => {
    const thrown = failure({
      test: "cart parses ids",
      file: "src/account.js",
      line: 10,
      expected: null,
      received: null,
      message: "RangeError: empty id",
      testLocation: { file: "test/cart.test.js", line: 8 },
    });
    expect(failureItem(thrown)).toBe(
      "src/account.js:10 (from test/cart.test.js:8) cart parses ids: RangeError: empty id",
    );
    expect(failureItemForms(thrown)[0]).toBe(
      "src/account.js:10 (from test/cart.test.js:8) cart parses ids",
    );
  });

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

  it("keeps the error's first line, cut when it is long", () => {
    const item = failureItem(failure({ message: `toBe ${"x".repeat(400)}` }));
    expect(item.length).toBeLessThan(250);
    expect(item.endsWith("…)")).toBe(true);
  });

  it("uses the message when the values are unknown", () => {
    expect(failureItem(failure({ expected: null, received: null, message: "boom" }))).toBe(
      "src/login.test.ts:12 login returns a token: boom",
    );
  });
});

describe("failureItemForms", () => {
  it("goes from where and which test to the whole item", () => {
    const forms = failureItemForms(
      failure({ message: "AssertionError: expected '123' to be 123 // Object.is equality" }),
    );
    expect(forms[0]).toBe("src/login.test.ts:12 login returns a token");
    expect(forms).toContain(
      'src/login.test.ts:12 login returns a token: expected 123, received "123" (expected … to be … // Object.is equality)',
    );
    expect(forms.at(-1)).toBe(
      "src/login.test.ts:12 login returns a token: expected 123, received \"123\" (AssertionError: expected '123' to be 123 // Object.is equality)",
    );
  });

  it("names a file once: `…` when the item before or the test's name already says it", () => {
    const previous = failure({ line: 3 });
    expect(failureItemForms(failure({}), previous)[0]).toBe("…:12 login returns a token");
    const pytest = failure({ test: "src/login.test.ts::test_token" });
    expect(failureItemForms(pytest)[0]).toBe("…:12 src/login.test.ts::test_token");
    expect(failureItemForms(pytest).at(-1)).toMatch(/^src\/login\.test\.ts:12 /);
  });

  it("shows long values by the part that differs in a brief form", () => {
    const forms = failureItemForms(
      failure({
        expected: 'User { id: 1, name: "Ada", address: Address { city: "Lyon", zip: "75001" } }',
        received: 'User { id: 1, name: "Ada", address: Address { city: "Paris", zip: "75001" } }',
      }),
    );
    expect(forms[1]).toBe(
      'src/login.test.ts:12 login returns a token: expected …city: "Lyon"…, received …city: "Paris"…',
    );
  });

  it("does not name a load failure twice", () => {
    const load = failure({ test: "test/a.test.js", file: "test/a.test.js", line: 5 });
    expect(
      failureItem({ ...load, expected: null, received: null, message: "SyntaxError: x" }),
    ).toBe("test/a.test.js:5: SyntaxError: x");
  });
});
