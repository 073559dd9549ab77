import { describe, expect, it } from "vitest";
import { builtinParsers } from "./builtin-parsers.js";

/**
 * Inputs built to make a careless pattern backtrack or a line-based reader choke: each is one
 * long line or many repeated report lines shaped like a runner's own.
 */
const HOSTILE: Readonly<Record<string, string>> = {
  "a 1 MB line of rule characters": "=".repeat(1_000_000),
  "a 1 MB line of spaced rules": "= _ ".repeat(250_000),
  "a 1 MB panic header": `thread '${"' panicked at ".repeat(75_000)}`,
  "a 1 MB -json event": `{"Time":"x","Action":"output","Output":"${"a".repeat(1_000_000)}"}`,
  "a 1 MB Go trace path": `${"/go".repeat(350_000)}.go:1`,
  "NUL bytes and an ANSI storm": `${"\0\x1b[".repeat(150_000)}\n--- FAIL: TestX (0s)\n`,
  "10,000 pytest sections": "___ test_x ___\nE   assert 1 == 2\ntests/a.py:1: x\n".repeat(10_000),
  "10,000 cargo panics": "thread 't' panicked at src/lib.rs:1:1:\n  left: 1\n right: 2\n".repeat(
    10_000,
  ),
};

describe("every built-in parser on hostile input", () => {
  for (const parser of builtinParsers) {
    it(`${parser.name} detects and parses without error or blow-up`, () => {
      for (const text of Object.values(HOSTILE)) {
        expect(typeof parser.detect(text)).toBe("boolean");
        expect(Array.isArray(parser.parse(text))).toBe(true);
      }
    });
  }
});
