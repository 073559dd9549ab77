import { describe, expect, it } from "vitest";
import { flatArrayElements } from "./flat-array.js";

describe("flatArrayElements", () => {
  it("splits an array of scalars at its top-level commas, quotes and escapes kept", () => {
    expect(flatArrayElements('["a", "b", 0, "c, d", \'e\\\'f\', 5]')).toEqual([
      '"a"',
      '"b"',
      "0",
      '"c, d"',
      "'e\\'f'",
      "5",
    ]);
    expect(flatArrayElements("[]")).toEqual([]);
    expect(flatArrayElements(" [nil] ")).toEqual(["nil"]);
  });

  it("reads nothing of nested structures, open quotes, holes or text that is not one array", () => {
    expect(flatArrayElements('[["-", "c", 1]]')).toBeNull();
    expect(flatArrayElements('[{"a": 1}]')).toBeNull();
    expect(flatArrayElements('["open]')).toBeNull();
    expect(flatArrayElements("[1, , 2]")).toBeNull();
    expect(flatArrayElements("1, 2")).toBeNull();
  });
});
