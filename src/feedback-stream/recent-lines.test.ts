import { describe, expect, it } from "vitest";
import { RecentLines } from "./recent-lines.js";

function last(ring: RecentLines, count: number): [string, number][] {
  const seen: [string, number][] = [];
  ring.visitLast(count, (line, index) => seen.push([line, index]));
  return seen;
}

describe("RecentLines", () => {
  it("reads the latest lines back across runs, oldest first, without trailing blanks", () => {
    const ring = new RecentLines(4);
    const chunk = "x\na  \n\nb\n";
    ring.add(chunk, 2, 8, 0, 3);
    ring.add("c\t", 0, 2, 3, 1);
    expect(last(ring, 10)).toEqual([
      ["a", 0],
      ["", 1],
      ["b", 2],
      ["c", 3],
    ]);
    expect(last(ring, 2)).toEqual([
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("holds no more than its capacity, and forgets everything at a gap", () => {
    const ring = new RecentLines(2);
    for (let index = 0; index < 10; index += 1) ring.add(`line ${index}`, 0, 6, index, 1);
    expect(last(ring, 5)).toEqual([
      ["line 8", 8],
      ["line 9", 9],
    ]);
    ring.add("after", 0, 5, 12, 1);
    expect(last(ring, 5)).toEqual([["after", 12]]);
  });
});
