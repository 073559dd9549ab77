import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength } from "../feedback/clean/code-points.js";
import { boundedDiff } from "./bounded-diff.js";

/** A one-hunk file diff whose body has `lines` changed lines. */
function fileDiff(file: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, index) => `+const line${index} = ${index};`);
  return [
    `diff --git a/${file} b/${file}`,
    "index 1111111..2222222 100644",
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -1,0 +1,${lines} @@`,
    ...body,
  ].join("\n");
}

describe("boundedDiff", () => {
  it("returns a short diff unchanged", () => {
    const diff = fileDiff("src/a.ts", 3);
    expect(boundedDiff(diff)).toBe(diff);
  });

  it("cuts at a hunk boundary and names what it cut", () => {
    const first = fileDiff("src/a.ts", 20);
    const diff = [first, fileDiff("src/b.ts", 200), fileDiff("src/c.ts", 5)].join("\n");
    const bounded = boundedDiff(diff, 1000);
    expect(bounded.startsWith(`${first}\n`)).toBe(true);
    expect(bounded.split("\n").at(-1)).toBe(
      "… 1 of 3 hunks cut (src/b.ts) to fit 1000 code points",
    );
    // The hunk too long to fit does not keep a later, shorter one out.
    expect(bounded).toContain("src/c.ts");
    expect(codePointLength(bounded)).toBeLessThanOrEqual(1000);
  });

  it("keeps the hunks of the files the failures point at first, in diff order", () => {
    const diff = [
      fileDiff("src/a.ts", 60),
      fileDiff("src/b.ts", 5),
      fileDiff("src/login.ts", 20),
    ].join("\n");
    const bounded = boundedDiff(diff, 1000, (file) => file === "src/login.ts");
    expect(bounded).toContain("+++ b/src/login.ts");
    expect(bounded).toContain("+++ b/src/b.ts");
    expect(bounded).not.toContain("+++ b/src/a.ts");
    expect(bounded.indexOf("src/b.ts")).toBeLessThan(bounded.indexOf("src/login.ts"));
    expect(bounded.split("\n").at(-1)).toBe(
      "… 1 of 3 hunks cut (src/a.ts) to fit 1000 code points; kept first: the files the failures point at",
    );
  });

  it("prints a file's header once when only its later hunk is kept", () => {
    const twoHunks = [
      "diff --git a/src/a.ts b/src/a.ts",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -1,1 +1,1 @@",
      ...Array.from({ length: 80 }, (_, index) => `+const big${index} = ${index};`),
      "@@ -100,1 +180,1 @@",
      "+const small = 1;",
    ].join("\n");
    const lines = boundedDiff(twoHunks, 400).split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "diff --git a/src/a.ts b/src/a.ts",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -100,1 +180,1 @@",
      "+const small = 1;",
    ]);
  });

  it("cuts inside a first hunk that alone is too long, at a line boundary", () => {
    const diff = fileDiff("src/a.ts", 500);
    const lines = boundedDiff(diff, 500).split("\n");
    expect(lines[0]).toBe("diff --git a/src/a.ts b/src/a.ts");
    expect(lines.at(-1)).toBe("… diff cut inside its only hunk to fit 500 code points");
    expect(diff.startsWith(`${lines.slice(0, -1).join("\n")}\n`)).toBe(true);
  });

  it("never exceeds the limit", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 3000 }),
        fc.integer({ min: 1, max: 800 }),
        (diff, max) => {
          expect(codePointLength(boundedDiff(diff, max))).toBeLessThanOrEqual(max);
        },
      ),
    );
  });
});
