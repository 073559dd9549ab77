import { describe, expect, it } from "vitest";
import { redactNamedValue, redactStrings } from "./redact-strings.js";

describe("redactStrings", () => {
  it("redacts every string of a document, keys and other values kept", () => {
    const document = {
      approval: {
        decision: "approve",
        by: "ada",
        note: "ok, token ghp_1234567890abcdefghijABCDEFGHIJ123456",
      },
      signatures: ["a", "password=hunter22"],
      spend: 3,
      flag: true,
      none: null,
    };
    expect(redactStrings(document)).toEqual({
      approval: { decision: "approve", by: "ada", note: "ok, token [REDACTED:github_token]" },
      signatures: ["a", "password=[REDACTED:password]"],
      spend: 3,
      flag: true,
      none: null,
    });
  });
});

describe("redactStrings on hostile documents", () => {
  it("walks a document nested deeper than the call stack, and keeps __proto__ as data", () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}"password=hunter22"${"]".repeat(200_000)}`);
    let inner: unknown = redactStrings(deep);
    for (let depth = 0; depth < 200_000; depth += 1) inner = (inner as unknown[])[0];
    expect(inner).toBe("password=[REDACTED:password]");
    const parsed = JSON.parse('{"__proto__": {"polluted": "yes"}}') as object;
    const copy = redactStrings(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__"]);
  });
});

describe("redactNamedValue", () => {
  it("redacts a value its name calls secret", () => {
    expect(redactNamedValue("API_TOKEN", "abc123def456")).toBe("[REDACTED:secret]");
    expect(redactNamedValue("DB_PASSWORD", "hunter22")).toBe("[REDACTED:password]");
    expect(redactNamedValue("PASSPHRASE", "correct horse battery")).toBe("[REDACTED:password]");
  });

  it("keeps an ordinary variable's value, and redacts a secret inside one", () => {
    expect(redactNamedValue("NODE_ENV", "test")).toBe("test");
    expect(redactNamedValue("DATABASE_URL", "postgres://app:hunter22@db/app")).toBe(
      "postgres://[REDACTED:url_credentials]@db/app",
    );
  });
});
