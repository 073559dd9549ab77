import { describe, expect, it } from "vitest";
import { firstChangedPair } from "./diff-pair.js";

describe("firstChangedPair", () => {
  it("gives the first removed line and the first added after it, indentation kept", () => {
    expect(firstChangedPair([" - item 1", "-   # a", "-   # b", "+   #a"])).toEqual({
      removed: "   # a",
      added: "   #a",
      gap: 2,
    });
    expect(firstChangedPair(["  x", "-        or b);", "+         or b);"], "- ", "+ ")).toEqual({
      removed: "       or b);",
      added: "        or b);",
      gap: 1,
    });
  });

  it("is null without a removed line or without an added one after it", () => {
    expect(firstChangedPair(["+ a", " b"])).toBeNull();
    expect(firstChangedPair(["+a", "-b"])).toBeNull();
  });
});
