import { describe, expect, it } from "vitest";
import type { Failure } from "../feedback.js";
import { withoutTreeEchoes } from "./tree-echoes.js";

/** A failure with every unknown field null, for terse expectations. */
const failure = (fields: Partial<Failure>): Failure => ({
  test: null,
  file: null,
  line: null,
  expected: null,
  received: null,
  message: "",
  ...fields,
});

describe("withoutTreeEchoes", () => {
  it("drops a bare tree line whose test has a detailed report, whatever the separators", () => {
    const detailed = failure({
      test: "cart › parses ids",
      file: "src/account.js",
      line: 10,
      message: "RangeError: empty id",
    });
    const echoes = [
      failure({ test: "parses ids", file: "test/cart.test.js" }),
      failure({ test: "cart parses ids" }),
    ];
    expect(withoutTreeEchoes([...echoes, detailed])).toEqual([detailed]);
  });

  it("keeps a bare failure no report names", () => {
    const bare = failure({ test: "cart › times out", file: "test/cart.test.js" });
    expect(withoutTreeEchoes([bare, failure({ test: "other", message: "x" })])).toHaveLength(2);
  });
});
