import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withoutProjectSuffix } from "./project-suffix.js";

describe("withoutProjectSuffix", () => {
  it("drops a trailing Vitest project name", () => {
    expect(withoutProjectSuffix("src/a.test.ts > sums [ chromium ]")).toBe("src/a.test.ts > sums");
    expect(withoutProjectSuffix("src/a.test.ts [ node ]")).toBe("src/a.test.ts");
  });

  it("keeps headers without one", () => {
    expect(withoutProjectSuffix("src/a.test.ts > sums")).toBe("src/a.test.ts > sums");
    expect(withoutProjectSuffix("a [ ]")).toBe("a [ ]");
    expect(withoutProjectSuffix("a [x] ]")).toBe("a [x] ]");
    // A test named by a selector (held-out-25, css-what).
    expect(withoutProjectSuffix("src/s.spec.ts > Collected > [ a=b i ]")).toBe(
      "src/s.spec.ts > Collected > [ a=b i ]",
    );
  });

  it("agrees with the regular expression it replaces, a name segment of brackets kept", () => {
    const piece = fc.constantFrom(" [ ", " ]", "]", "[", " ", "a", "x > y", " >");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const header = pieces.join("");
        const dropped = header.replace(/ \[ [^\]]* \]$/, "");
        const segment = header.slice(0, dropped.length).endsWith(" >");
        expect(withoutProjectSuffix(header)).toBe(segment ? header : dropped);
      }),
      { numRuns: 2000 },
    );
  });
});
