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
