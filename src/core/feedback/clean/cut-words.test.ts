import { describe, expect, it } from "vitest";
import { cutWords } from "./cut-words.js";

describe("cutWords", () => {
  it("cuts at the end of a word when one ends shortly before the limit", () => {
    expect(cutWords("the identifier list ended before", 24)).toBe("the identifier list…");
  });

  it("keeps a word the cut falls just after", () => {
    expect(cutWords("the identifier list ended", 20)).toBe("the identifier list…");
  });

  it("cuts inside a word longer than the reach rather than dropping it", () => {
    expect(cutWords("a supercalifragilisticexpialidocious", 20)).toBe("a supercalifragilis…");
  });
});
