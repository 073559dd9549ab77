import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { relativeTo } from "./relative-paths.js";

describe("relativeTo", () => {
  it("writes paths and file URLs under the directory relative to it", () => {
    const text = [
      "    at Object.<anonymous> (/home/ana/shop/src/cart.test.js:5:3)",
      '"uri": "file:///home/ana/shop/src/cart.js"',
      "/home/ana/shop/src/a b.js:2 and file:///home/ana/shop/src/a%20b.js",
    ].join("\n");
    expect(relativeTo("/home/ana/shop", text)).toBe(
      [
        "    at Object.<anonymous> (src/cart.test.js:5:3)",
        '"uri": "src/cart.js"',
        "src/a b.js:2 and src/a%20b.js",
      ].join("\n"),
    );
  });

  it("leaves other paths alone, a sibling directory with the same prefix included", () => {
    const text = "/home/ana/shop-old/x.js /home/ana/shop /usr/lib/node/y.js";
    expect(relativeTo("/home/ana/shop", text)).toBe(text);
    expect(relativeTo("/home/ana/shop/", "/home/ana/shop/x.js")).toBe("x.js");
  });

  it("never touches text for the root or a relative directory", () => {
    fc.assert(
      fc.property(fc.constantFrom("/", "//", "", "shop", "./shop"), fc.string(), (dir, text) => {
        expect(relativeTo(dir, text)).toBe(text);
      }),
    );
  });
});
