import { describe, expect, it } from "vitest";
import { lineIn } from "./line-range.js";

describe("lineIn", () => {
  it("copies the range without trailing blanks, Unicode spaces included", () => {
    const text = "one\ntwo \t\nthree\u00a0\u3000\n\n";
    expect(lineIn(text, 0, 3)).toBe("one");
    expect(lineIn(text, 4, 9)).toBe("two");
    expect(lineIn(text, 10, 17)).toBe("three");
    expect(lineIn(text, 18, 18)).toBe("");
  });

  it("keeps a trailing character that is not blank, however it is encoded", () => {
    expect(lineIn("a ✓\n", 0, 3)).toBe("a ✓");
    expect(lineIn("bell\x07", 0, 5)).toBe("bell\x07");
  });
});
