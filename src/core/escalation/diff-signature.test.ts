import { describe, expect, it } from "vitest";
import { diffSignature } from "./diff-signature.js";

const change = [
  "diff --git a/src/a.ts b/src/a.ts",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -1,2 +1,2 @@",
  " const keep = 1;",
  "-const total = 0;",
  "+let total = 0;",
].join("\n");

describe("diffSignature", () => {
  it("is the same for the same edit at other positions or with trailing spaces", () => {
    const moved = change.replace("@@ -1,2 +1,2 @@", "@@ -40,2 +41,2 @@").replace("= 0;", "= 0;  ");
    expect(diffSignature(moved)).toBe(diffSignature(change));
  });

  it("differs for a different edit", () => {
    expect(diffSignature(change.replace("let total", "var total"))).not.toBe(diffSignature(change));
  });

  it("is null without a diff", () => {
    expect(diffSignature(undefined)).toBeNull();
    expect(diffSignature("  \n")).toBeNull();
  });
});
