import { describe, expect, it } from "vitest";
import { withoutTreeEchoes } from "./tree-echoes.js";
import { failureOf } from "../failure-of.js";

describe("withoutTreeEchoes", () => {
  it("drops a bare tree line whose test has a detailed report, whatever the separators", () => {
    const detailed = failureOf({
      test: "cart › parses ids",
      file: "src/account.js",
      line: 10,
      message: "RangeError: empty id",
    });
    const echoes = [
      failureOf({ test: "parses ids", file: "test/cart.test.js" }),
      failureOf({ test: "cart parses ids" }),
    ];
    expect(withoutTreeEchoes([...echoes, detailed])).toEqual([detailed]);
  });

  it("keeps a bare failure no report names", () => {
    const bare = failureOf({ test: "cart › times out", file: "test/cart.test.js" });
    expect(withoutTreeEchoes([bare, failureOf({ test: "other", message: "x" })])).toHaveLength(2);
  });

  it("puts a report where the tree listed its test: the order the tests ran (jwt-decode)", () => {
    const first = failureOf({ test: "jwt › utf8", file: "lib/a.test.ts", line: 25, message: "x" });
    const thrown = failureOf({
      test: "jwt › padding",
      file: "lib/index.ts",
      line: 84,
      message: "y",
    });
    const echo = failureOf({ test: "padding", file: "lib/a.test.ts" });
    const next = failureOf({ test: "jwt › single", file: "lib/a.test.ts", line: 46, message: "z" });
    expect(withoutTreeEchoes([first, echo, next, thrown])).toEqual([first, thrown, next]);
  });

  it("matches a title that ends with a colon to its report, whichever colons each reading kept (to-regex-range)", () => {
    const echo = failureOf({
      test: "should reverse `min/max` when the min is larger than the max",
    });
    const report = failureOf({
      test: "to-regex-range > minimum / maximum > should reverse `min/max` when the min is larger than the max:",
      file: "test/test.js",
      line: 118,
      message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    });
    expect(withoutTreeEchoes([echo, report])).toEqual([report]);
  });
});
