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
});
