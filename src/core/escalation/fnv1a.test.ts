import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a64 } from "./fnv1a.js";

/** Reference FNV-1a 64 on BigInt, straight from the definition. */
function reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

describe("fnv1a64", () => {
  it("matches the published test vectors", () => {
    expect(fnv1a64("")).toBe("cbf29ce484222325");
    expect(fnv1a64("a")).toBe("af63dc4c8601ec8c");
    expect(fnv1a64("foobar")).toBe("85944171f73967e8");
  });

  it("agrees with a BigInt implementation on any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => fnv1a64(text) === reference(text)),
    );
  });
});
