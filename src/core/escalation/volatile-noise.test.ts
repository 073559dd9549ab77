import { describe, expect, it } from "vitest";
import { maskRunNoise, maskVolatile } from "./volatile-noise.js";

describe("maskRunNoise", () => {
  it("masks timings, scratch paths, ids and line:col but keeps numbers in names", () => {
    const a = maskRunNoise(
      "case 2 (12 ms) at /tmp/jest_ab12/src/a.test.ts:13:21 id 0x7ffd1c 3f2a9c1d 2024-05-01T10:00:00.123Z",
    );
    const b = maskRunNoise(
      "case 2 (340 ms) at /tmp/jest_zz99/src/a.test.ts:18:5 id 0x1 77aa12ef9 2025-01-02T03:04:05Z",
    );
    expect(a).toBe(b);
    expect(a).toContain("case 2");
    expect(maskRunNoise("case 3")).not.toBe(maskRunNoise("case 2"));
  });

  it("leaves hex-looking words and plain numbers alone", () => {
    expect(maskRunNoise("deadbeef 1234567")).toBe("deadbeef 1234567");
  });
});

describe("maskVolatile", () => {
  it("masks free-standing numbers but keeps quotes and identifiers", () => {
    expect(maskVolatile('expected 3, received "4" in test2')).toBe(
      'expected #, received "#" in test2',
    );
    expect(maskVolatile("123")).not.toBe(maskVolatile('"123"'));
  });
});
