import { describe, expect, it } from "vitest";
import { withoutTrailing } from "./without-trailing.js";

describe("withoutTrailing", () => {
  it("cuts only the run of the given characters that ends the text", () => {
    expect(withoutTrailing("(src/a.ts:3).", ").")).toBe("(src/a.ts:3");
    expect(withoutTrailing("expected: … =>  ", " :=>…")).toBe("expected");
    expect(withoutTrailing("a.b", "x")).toBe("a.b");
    expect(withoutTrailing("...", ".")).toBe("");
  });
});
