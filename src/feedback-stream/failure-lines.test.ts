import { describe, expect, it } from "vitest";
import { isPassingLine, reportsFailure } from "./failure-lines.js";

/** How the reducer reads a line: a passing test's line never looks like a failure. */
const looksLikeFailure = (line: string) =>
  !isPassingLine(line, 0, line.length) && reportsFailure(line);

describe("reportsFailure, after isPassingLine", () => {
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
    "  ✘ [fail]: cart › sums prices",
    "  ✘  1 [chromium] › tests/cart.spec.ts:14:3 › cart › shows the total (1.6s)",
    "  1) [chromium] › tests/cart.spec.ts:14:3 › cart › shows the total ────",
    "    Test timeout of 30000ms exceeded.",
    "  Difference (- actual, + expected):",
    "   4:20  error    Expected '===' and instead saw '=='  eqeqeq",
    "   7:7   warning  'unused' is never reassigned  prefer-const",
    "/ci/app/src/a.js:2:3: Unexpected console statement. [Warning/no-console]",
    "/ci/app/src/a.js: line 2, col 3, Warning - Unexpected console statement. (no-console)",
    "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
    "src/a.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.",
    "src/a.ts:3:7 lint/suspicious/noDoubleEquals  FIXABLE  ━━━━━━━━━━━━",
    "  ! This variable e is unused.",
    '  /ci/app/a.py:3:1 - warning: Import "yaml" could not be resolved',
    "ERROR: test_blank (tests.test_orders.OrderTest.test_blank)",
    "Failed example:",
    "Got:",
    '       got: "123"',
    "./app/report.py:12:89: E501 line too long (101 > 88 characters)",
    "app/report.py:1:1: 'os' imported but unused",
    "app/users.py:13: error: Argument 1 has incompatible type  [arg-type]",
    "warning: unneeded `return` statement",
    "  --> src/lib.rs:15:9",
    "[ERROR] /work/src/main/java/shop/Cart.java:[29,68] cannot find symbol",
    "[ERROR] COMPILATION ERROR : ",
    "[ERROR] checksOutEmptyCart  Time elapsed: 0 s  <<< ERROR!",
    "rspec ./spec/cart_spec.rb:7 # Cart#payload keeps the numeric user id",
    "There were 4 failures:",
    "Failed asserting that '123' is identical to 123.",
    // go test -v prints a subtest's log line under its `=== RUN`, far above its `--- FAIL`.
    "    levenshtein_test.go:33: levenshteinDistance() = 0, want 5",
    "│     ├─ sumsPrices() ✘ expected: <15> but was: <16>",
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

describe("isPassingLine", () => {
  it("reads a line in place, from its first characters, within its range only", () => {
    const text = "FAIL a.test.ts\n    ✓ sums (1 ms)\nok\n PASS  b.test.ts\n";
    expect(isPassingLine(text, 0, 14)).toBe(false);
    expect(isPassingLine(text, 15, 32)).toBe(true);
    expect(isPassingLine(text, 33, 35)).toBe(false);
    expect(isPassingLine(text, 36, 52)).toBe(true);
    expect(isPassingLine("  ✓", 0, 2)).toBe(false);
  });
});
