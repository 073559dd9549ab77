import { describe, expect, it } from "vitest";
import { elideValues } from "./elide-values.js";

describe("elideValues", () => {
  it("replaces the known values, in either quote style", () => {
    expect(elideValues("expected '123' to be 123 // Object.is equality", ['"123"', "123"])).toBe(
      "expected … to be … // Object.is equality",
    );
  });

  it("replaces quoted strings and bracketed literals it does not know", () => {
    expect(elideValues("expected { id: 1, name: 'Ada' } to deeply equal [1, 2]", [])).toBe(
      "expected … to deeply equal …",
    );
  });

  it("keeps calls and words whole", () => {
    expect(elideValues("Load(1) = {ID:1}, want {ID:2}", [])).toBe("Load(1) = …, want …");
    expect(elideValues("Add(2, 2) = 5; want 4", ["4", "5"])).toBe("Add(2, 2) = …; want …");
    expect(elideValues("can't find user's id", [])).toBe("can't find user's id");
  });
});
