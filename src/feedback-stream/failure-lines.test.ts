import { describe, expect, it } from "vitest";
import { looksLikeFailure } from "./failure-lines.js";

describe("looksLikeFailure", () => {
  it.each([
    " FAIL  src/cart.test.ts > cart > sums",
    "  ● cart › sums prices",
    "    ✕ sums prices (3 ms)",
    "   × sums prices 2ms",
    "✖ sums prices (1.2ms)",
    "not ok 3 - sums prices",
    "--- FAIL: TestSum (0.00s)",
    "FAILED tests/test_cart.py::test_total - assert 7 == 8",
    "E       assert 7 == 8",
    "_______________ test_total _______________",
    "---- tests::sums stdout ----",
    "thread 'tests::sums' panicked at src/lib.rs:9:5:",
    "  left: 4",
    "AssertionError: expected 3 to be 4",
    "TypeError: cannot read properties of undefined",
    "error[E0308]: mismatched types",
    "    Expected: 4",
    '<failure message="expected 4">',
    '{"name":"sums","status":"failed"}',
    '{"Action":"fail","Test":"TestSum"}',
    "  1) cart",
    "Error: Timeout of 2000ms exceeded.",
  ])("keeps %j", (line) => {
    expect(looksLikeFailure(line)).toBe(true);
  });

  it.each([
    "    ✓ handles Error: titles of passing tests (3 ms)",
    "  ✔ sums prices (0.5ms)",
    "ok 2 - expected to pass",
    " PASS  src/cart.test.ts (12 ms)",
    "    processing batch 12 of 36 items",
    "",
  ])("passes over %j", (line) => {
    expect(looksLikeFailure(line)).toBe(false);
  });
});
