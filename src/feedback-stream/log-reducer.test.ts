import { describe, expect, it } from "vitest";
import { MAX_LINE_LENGTH } from "../core/feedback/clean/log-lines.js";
import { LogReducer } from "./log-reducer.js";

function reduce(lines: readonly string[], limits = {}) {
  const reducer = new LogReducer(limits);
  const text = lines.join("\n");
  reducer.pushLines(text, 0, text.length);
  return reducer.end();
}

const noise = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `  ✓ passes case ${from + index} (1 ms)`);

describe("LogReducer", () => {
  it("keeps a failure buried in a 10,000-line log, with its context, head and tail", () => {
    const failure = [
      "  ● cart › total › sums prices",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "",
      "    Expected: 8.9",
      "    Received: 9",
      "",
      "      at Object.<anonymous> (src/cart.test.ts:9:23)",
    ];
    const lines = [...noise(5000), " FAIL  src/cart.test.ts", ...failure, ...noise(5000, 5000)];
    lines.push("Tests:       1 failed, 9999 passed, 10000 total");
    const reduction = reduce(lines);
    for (const line of failure) expect(reduction.text).toContain(line);
    expect(reduction.text).toContain(" FAIL  src/cart.test.ts");
    expect(reduction.text).toContain("passes case 0 ");
    expect(reduction.text.endsWith("Tests:       1 failed, 9999 passed, 10000 total")).toBe(true);
    expect(reduction.lines).toBe(lines.length);
    expect(reduction.keptLines).toBeLessThan(400);
    expect(reduction.droppedLines).toBe(reduction.lines - reduction.keptLines);
    expect(reduction.text.split("\n")).toHaveLength(reduction.keptLines);
  });

  it("keeps the suite headers a failure far below them is nested in, and no others", () => {
    const nodeNoise = (count: number, indent: string) =>
      Array.from({ length: count }, (_, index) => `${indent}✔ passes case ${index} (0.1ms)`);
    const lines = [
      ...nodeNoise(100, ""),
      "▶ Option.implies()",
      ...nodeNoise(100, "  "),
      "  ▶ chained",
      ...nodeNoise(100, "    "),
      "  ✔ chained (3ms)",
      "  ▶ looped",
      ...nodeNoise(100, "    "),
      "    ✖ then no infinite loop (0.4ms)",
      "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
      ...nodeNoise(300, ""),
      "ℹ fail 1",
    ];
    const text = reduce(lines).text;
    expect(text).toContain("▶ Option.implies()\n  ▶ looped\n");
    expect(text).not.toContain("▶ chained");
  });

  it("keeps the context after a failure in the head, past the head's last line", () => {
    // `npm test`'s banner pushes a Jest diff across the end of the head.
    const lines = [
      "> fixture@1.0.0 test",
      "  ● cart › builds the profile",
      "      Object {",
      '        "address": Object {',
      '    -     "city": "Lyon",',
      '    +     "city": "Paris",',
      ...noise(500),
    ];
    const reduction = reduce(lines, { headLines: 3, contextAfter: 4, tailLines: 1 });
    expect(reduction.text).toContain('"city": "Lyon"');
    expect(reduction.text).toContain('"city": "Paris"');
  });

  it("keeps lines in log order and never twice when head, blocks and tail overlap", () => {
    const lines = Array.from({ length: 120 }, (_, index) =>
      index % 30 === 0 ? `FAIL line ${index}` : `line ${index}`,
    );
    const reduction = reduce(lines);
    expect(reduction.text).toBe(lines.join("\n"));
    expect(reduction.droppedLines).toBe(0);
  });

  it("keeps the context before and after a failure line, and no more", () => {
    const lines = [...noise(100), "Error: boom", ...noise(100, 100)];
    const reduction = reduce(lines, {
      headLines: 0,
      tailLines: 0,
      contextBefore: 2,
      contextAfter: 3,
    });
    expect(reduction.text.split("\n")).toEqual([...noise(2, 98), "Error: boom", ...noise(3, 100)]);
  });

  it("stays within its budget when every line looks like a failure", () => {
    const line = `Error: ${"x".repeat(3000)}`;
    const reduction = reduce(
      Array.from({ length: 5000 }, () => line),
      { budget: 200_000 },
    );
    expect(reduction.text.length).toBeLessThanOrEqual(200_000);
    expect(reduction.keptLines).toBeGreaterThan(50);
    expect(reduction.droppedLines).toBe(5000 - reduction.keptLines);
  });

  it("reads lines in one call as it reads them one by one, up to an over-long one", () => {
    const lines = [...noise(300), "Error: boom  ", ...noise(30, 300), "{", ' "a": 1', "}", "ok"];
    const chunk = `${lines.join("\n")}\n${"x".repeat(MAX_LINE_LENGTH + 1)}\nnext\n`;
    const reducer = new LogReducer({}, 1000);
    const end = chunk.indexOf("\nnext");
    const stop = reducer.pushLines(chunk, 0, end);
    expect(stop).toBe(chunk.indexOf("xxx"));
    expect(reducer.pushLines(chunk, end + 1, chunk.length - 1)).toBe(chunk.length);
    const oneByOne = new LogReducer({}, 1000);
    for (const line of [...lines, "next"]) oneByOne.pushLines(line, 0, line.length);
    expect(reducer.end()).toEqual(oneByOne.end());
  });
});
