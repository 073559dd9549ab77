import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactedHead, redactedPrefix, redactedTail } from "./redacted-cut.js";
import { leakedPiece, SECRET_CORPUS } from "./test-support/secret-corpus.js";

/** A log of ordinary lines with a few corpus secrets planted among them. */
const log = fc
  .array(
    fc.oneof(
      fc.constantFrom(...SECRET_CORPUS),
      fc.constantFrom("PASS src/a.test.ts", "  at run (src/b.ts:3:9)", "expected 1 to be 2", "ok"),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((lines) => ({
    text: lines.map((line) => (typeof line === "string" ? line : line.text)).join("\n"),
    planted: lines.filter((line) => typeof line !== "string"),
  }));

describe("redactedHead and redactedTail", () => {
  it("never keep a piece of a secret, wherever the cut falls", () => {
    fc.assert(
      fc.property(log, fc.double({ min: 0, max: 1, noNaN: true }), ({ text, planted }, where) => {
        const cut = Math.floor(where * text.length);
        const head = redactedHead(text, cut);
        const tail = redactedTail(text, cut);
        for (const secret of planted) {
          expect(leakedPiece(head.text, secret)).toBeNull();
          expect(leakedPiece(tail.text, secret)).toBeNull();
        }
        expect(head.cut).toBeGreaterThanOrEqual(cut);
        expect(tail.cut).toBeLessThanOrEqual(cut);
      }),
      { numRuns: 500 },
    );
  });

  it("cut where asked when no secret is in the way", () => {
    expect(redactedHead("hello world", 5)).toEqual({ text: "hello", cut: 5 });
    expect(redactedTail("hello world", 5)).toEqual({ text: " world", cut: 5 });
  });

  it("move the cut to the secret's far side", () => {
    const text = "a ghp_1234567890abcdefghijABCDEFGHIJ123456 b";
    expect(redactedHead(text, 10)).toEqual({ text: "a [REDACTED:github_token]", cut: 42 });
    expect(redactedTail(text, 10)).toEqual({ text: "[REDACTED:github_token] b", cut: 2 });
  });
});

describe("redactedPrefix", () => {
  const token = "ghp_1234567890abcdefghijABCDEFGHIJ123456";

  it("cuts plain text where asked, never inside a surrogate pair", () => {
    expect(redactedPrefix("hello world", 5)).toBe("hello");
    expect(redactedPrefix("abc😀def", 4)).toBe("abc");
  });

  it("keeps a secret the cut falls in only as its whole marker, or not at all", () => {
    const text = `${"a ".repeat(10)}${token} tail`;
    expect(redactedPrefix(text, 25)).toBe("a a a a a a a a a a ");
    expect(redactedPrefix(text, 50)).toBe(
      `${"a ".repeat(10)}[REDACTED:github_token] tail`.slice(0, 50),
    );
    for (let length = 0; length <= text.length; length += 1) {
      const kept = redactedPrefix(text, length);
      expect(kept.length).toBeLessThanOrEqual(length);
      expect(kept).not.toMatch(/ghp_|1234567/);
    }
  });
});
