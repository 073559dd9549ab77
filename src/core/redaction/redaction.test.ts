import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "./redaction.js";

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOjEyMywibmFtZSI6ImFkYSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

describe("redact", () => {
  it.each([
    ["a JWT", `token=${JWT} end`, "token=[REDACTED:jwt] end"],
    ["an AWS access key", "key AKIAIOSFODNN7EXAMPLE here", "key [REDACTED:aws_access_key] here"],
    ["an AWS session key", "ASIAY34FZKBOKMUTVV7A", "[REDACTED:aws_access_key]"],
    ["a GitHub PAT", "ghp_1234567890abcdefghijABCDEFGHIJ123456", "[REDACTED:github_token]"],
    ["a GitHub app token", "ghs_1234567890abcdefghijABCDEFGHIJ123456", "[REDACTED:github_token]"],
    [
      "a fine-grained GitHub PAT",
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
      "[REDACTED:github_token]",
    ],
    ["an OpenAI key", "sk-abcdefghijklmnopqrstuvwx1234", "[REDACTED:api_key]"],
    ["an OpenAI project key", "sk-proj-abc_DEF-123456789012345678", "[REDACTED:api_key]"],
    ["an Anthropic key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz-0123", "[REDACTED:api_key]"],
    ["a Slack bot token", "xoxb-123456789012-abcdefghijkl", "[REDACTED:slack_token]"],
    [
      "credentials in a URL",
      "clone https://ada:s3cr3t-pass@github.com/org/repo.git",
      "clone https://[REDACTED:url_credentials]@github.com/org/repo.git",
    ],
    [
      "an Authorization header",
      "Authorization: Basic YWRhOnMzY3IzdA==",
      "Authorization: [REDACTED:authorization]",
    ],
    [
      "an Authorization header with a bearer token",
      "authorization: Bearer abc.def.ghi",
      "authorization: [REDACTED:authorization]",
    ],
    ["a bare bearer token", "sent Bearer abcdefgh12345678", "sent Bearer [REDACTED:bearer_token]"],
    ["a password assignment", "DB_PASSWORD=hunter22 next", "DB_PASSWORD=[REDACTED:password] next"],
    ["a JSON password", '{"password": "hunter22"}', '{"password": "[REDACTED:password]"}'],
  ])("redacts %s", (_kind, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it("redacts a PEM private key block, keeping the text around it", () => {
    const pem = [
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH",
      "lWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE",
      "-----END RSA PRIVATE KEY-----",
    ].join("\n");
    expect(redact(`before\n${pem}\nafter`)).toBe("before\n[REDACTED:private_key]\nafter");
  });

  it("redacts a private key cut off before its END line", () => {
    const text =
      "key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabc+/=\nFAIL src/a.test.ts";
    expect(redact(text)).toBe("key:\n[REDACTED:private_key]\nFAIL src/a.test.ts");
  });

  it("leaves public keys, certificates and ordinary text alone", () => {
    const text = "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\nexpected 1 to be 2";
    expect(redact(text)).toBe(text);
    expect(redact("task-force sk-short https://example.com/path")).toBe(
      "task-force sk-short https://example.com/path",
    );
  });

  it("is idempotent", () => {
    const once = redact(`Authorization: Bearer ${JWT} https://u:p4ss@h.io password=abc123`);
    expect(redact(once)).toBe(once);
  });

  it("stays fast on hostile input", () => {
    const hostile = [
      "-----BEGIN ".repeat(20_000),
      "a.".repeat(200_000),
      "eyJ".repeat(100_000),
      "x://".repeat(100_000),
      "authorization".repeat(50_000),
    ].join("\n");
    expect(redact(hostile).length).toBeGreaterThan(0);
  });
});

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const chars = (alphabet: string, min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const base64url = alnum + "-_";

/** A credential of each supported kind, paired with the part that must never survive. */
const secret: fc.Arbitrary<{ text: string; secret: string }> = fc.oneof(
  fc
    .tuple(chars(base64url, 10, 40), chars(base64url, 10, 40), chars(base64url, 10, 40))
    .map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`)
    .map((jwt) => ({ text: jwt, secret: jwt })),
  fc
    .tuple(fc.constantFrom("AKIA", "ASIA"), chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 16, 16))
    .map(([prefix, body]) => ({ text: prefix + body, secret: prefix + body })),
  fc
    .tuple(fc.constantFrom("ghp_", "gho_", "ghs_", "ghu_", "ghr_"), chars(alnum, 36, 36))
    .map(([prefix, body]) => ({ text: prefix + body, secret: prefix + body })),
  chars(alnum + "_", 22, 82).map((body) => ({
    text: `github_pat_${body}`,
    secret: `github_pat_${body}`,
  })),
  fc
    .tuple(fc.constantFrom("sk-", "sk-proj-", "sk-ant-api03-"), chars(alnum + "-_", 20, 60))
    .map(([prefix, body]) => ({ text: prefix + body, secret: prefix + body })),
  fc
    .tuple(fc.constantFrom("xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"), chars(alnum + "-", 10, 40))
    .map(([prefix, body]) => ({ text: prefix + body, secret: prefix + body })),
  fc.tuple(chars(alnum, 1, 12), chars(alnum + "!$%*-_", 6, 24)).map(([user, password]) => ({
    text: `https://${user}:${password}@db.example.com/x`,
    secret: `:${password}@`,
  })),
  chars(alnum + "._-", 20, 60).map((token) => ({ text: `Bearer ${token}`, secret: token })),
  chars(alnum + "+/", 40, 64).map((body) => ({
    text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n${body}\n-----END OPENSSH PRIVATE KEY-----`,
    secret: body,
  })),
);

/** Surrounding text that cannot glue itself to the secret (it never ends in a word character). */
const around = fc.string({ maxLength: 40 }).map((text) => `${text} `);

describe("redact (properties)", () => {
  it("leaves no planted secret, wherever it sits", () => {
    fc.assert(
      fc.property(
        around,
        secret,
        around,
        fc.constantFrom(" ", "\n", "\t", '"'),
        (before, planted, after, separator) => {
          const text = `${before}${separator}${planted.text}${separator}${after}`;
          expect(redact(text)).not.toContain(planted.secret);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe("redact leaves code alone", () => {
  it("keeps type annotations and literals next to secret-like names", () => {
    const code = "login(name: string, password: string) { const secret: boolean = true; }";
    expect(redact(code)).toBe(code);
    expect(redact("secret: true")).toBe("secret: true");
  });

  it("still redacts a real value after such a name", () => {
    expect(redact("password: hunter22")).toBe("password: [REDACTED:password]");
    expect(redact("password: stringent-pw")).toContain("[REDACTED:password]");
  });
});
