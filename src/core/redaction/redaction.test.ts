import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact, secretSpans } from "./redaction.js";
import { leakedPiece, SECRET_CORPUS } from "./test-support/secret-corpus.js";

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
      "a password in a URL without a user",
      "redis://:hunter22@cache:6379",
      "redis://[REDACTED:url_credentials]@cache:6379",
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
    [
      "a whole quoted password, spaces and all",
      'password = "correct horse battery"',
      'password = "[REDACTED:password]"',
    ],
    [
      "a quoted value with escaped quotes",
      String.raw`{"api_key": "ab\"cd\"ef"} tail`,
      '{"api_key": "[REDACTED:secret]"} tail',
    ],
    [
      "a JSON document inside a JSON string",
      String.raw`"{\"password\":\"hunter22\"}"`,
      String.raw`"{\"password\":\"[REDACTED:password]\"}"`,
    ],
    ["a camel-case key", "accessToken: abc123def", "accessToken: [REDACTED:secret]"],
    ["an upper-case key", "PGPASSWORD=hunter22 psql", "PGPASSWORD=[REDACTED:password] psql"],
    [
      "a connection string, value by value",
      "Server=db;User Id=app;Password=hunter22;Encrypt=true",
      "Server=db;User Id=app;Password=[REDACTED:password];Encrypt=true",
    ],
    [
      "a generated value under a key that only may be a secret",
      "key: 9f86d081884c7d659a2feaa0c55ad015",
      "key: [REDACTED:secret]",
    ],
    ["a mysql password", "mysql -uroot -phunter22 db", "mysql -uroot -p[REDACTED:password] db"],
    [
      "a private key in a JSON string",
      String.raw`"key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASC\n-----END PRIVATE KEY-----\n"`,
      String.raw`"key": "[REDACTED:private_key]\n"`,
    ],
  ])("redacts %s", (_kind, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it("redacts secrets on the lines of a diff, added and removed", () => {
    const diff = [
      "-const key = 'ghp_1234567890abcdefghijABCDEFGHIJ123456';",
      "+const url = 'postgres://app:hunter22@db/app';",
      "-API_TOKEN=abc123def456",
      "-mysql -phunter22 app",
    ].join("\n");
    expect(redact(diff)).toBe(
      [
        "-const key = '[REDACTED:github_token]';",
        "+const url = 'postgres://[REDACTED:url_credentials]@db/app';",
        "-API_TOKEN=[REDACTED:secret]",
        "-mysql -p[REDACTED:password] app",
      ].join("\n"),
    );
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

  it("redacts a private key cut off before its END line, up to its last base64 line", () => {
    const text =
      "key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabc+/=\nFAIL src/a.test.ts";
    expect(redact(text)).toBe("key:\n[REDACTED:private_key]\nFAIL src/a.test.ts");
  });

  it("redacts a key cut off at the end of the text, its last partial line too", () => {
    expect(redact("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA")).toBe(
      "[REDACTED:private_key]",
    );
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
});

describe("redact: the secret corpus", () => {
  it("has at least 52 kinds", () => {
    expect(SECRET_CORPUS.length).toBeGreaterThanOrEqual(52);
  });

  it.each(SECRET_CORPUS.map((planted) => [planted.name, planted] as const))(
    "leaves no piece of %s",
    (_name, planted) => {
      const redacted = redact(`12:00:01 step output\n${planted.text}\nnext line`);
      expect(leakedPiece(redacted, planted)).toBeNull();
      expect(redacted).toContain("[REDACTED:");
      expect(redacted).toMatch(/^12:00:01 step output\n/);
      expect(redacted).toMatch(/\nnext line$/);
      expect(redact(redacted)).toBe(redacted);
    },
  );

  it("leaves no piece of any, whatever marks the line it is on", () => {
    const marks = [
      "+",
      "-",
      "> ",
      "| ",
      "# ",
      "* ",
      "(",
      "[",
      "'",
      '"',
      "`",
      "\t",
      "  ",
      "=",
      ", ",
    ];
    const leaked = SECRET_CORPUS.flatMap((planted) =>
      marks.flatMap((mark) => {
        const redacted = redact(`${mark}${planted.text}${mark.trim()}`);
        return leakedPiece(redacted, planted) === null
          ? []
          : [`${JSON.stringify(mark)} ${planted.name}`];
      }),
    );
    expect(leaked).toEqual([]);
  });

  it("leaves no piece of any when all share one log", () => {
    const log = SECRET_CORPUS.map((planted, index) => `line ${index}: ${planted.text}`).join("\n");
    const redacted = redact(log);
    for (const planted of SECRET_CORPUS) expect(leakedPiece(redacted, planted)).toBeNull();
  });
});

describe("redact keeps the facts of test output", () => {
  it.each([
    "expect(token).toBe(expectedToken)",
    "TypeError: Cannot read properties of undefined (reading 'token')",
    "✓ returns a token when the password is valid (3 ms)",
    "  at Object.<anonymous> (src/auth/token.test.ts:12:5)",
    "FAIL src/secret/password.test.ts",
    "KeyError: 'api_key'",
    "token_type: Bearer",
    "max_tokens: 4096",
    "key_id: 42",
    "login(name: string, password: string): Promise<Token>",
    "apiKey?: string",
    'Expected: "token"',
    'Received: "key"',
    "PWD=/home/ada/project",
    '"key": "user-42"',
    "{ key: 'a', value: 1 }",
    "password_min_length: 12",
    "token: undefined",
    "secret: null",
    "private: true",
    "expected { token: 'abc' } to deeply equal { token: 'abd' }",
    "Error: invalid token: expected 3 segments",
    "    --- PASS: TestLabel/single_unit (0.00s)",
    "--- FAIL: TestToken/expired_token_is_refused (0.01s)",
    "✓ test_shouldReturnHttp200WhenValidToken",
    "dist/assets/main-a1b2c3d4e5f6a7b8c9d0.js 12.3 kB",
    "commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "Bearer authentication failed for ada",
    "mysql -u root -p app",
    "const password = process.env.DB_PASSWORD;",
    "const token = getToken();",
    "https://example.com:8080/path?page=2",
    "git@github.com:org/repo.git",
    "ssh://git@host:22/org/repo",
    "export PATH=$HOME/bin:$PATH",
    "cat: /etc/passwd: Permission denied",
    "AuthError: invalid credentials for user ada",
    "PasswordResetForm: renders the form",
    "expected 'secret-santa' to equal 'secret'",
    "signature: (a: number) => string",
    'Warning: Each child in a list should have a unique "key" prop.',
    "session: 3 tests, 1 failed",
    "at async Promise.all (index 0) monkey: banana",
    "sig: abc",
    "if (token == expected) return",
    "temp = SortedSet(range(100), key=\x1b[94mlambda\x1b[39;49;00m val: val)",
    "auth: basic",
    // nyc's instrumented source, quoted whole by a crash (minimist under tape).
    "var key=(++cov_2ol9m1uava.s[3],keys[keys.length-1]",
    "Unexpected token '<', \"<!DOCTYPE \" is not valid JSON",
  ])("keeps %s", (line) => {
    expect(redact(line)).toBe(line);
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
  fc.tuple(chars(alnum, 0, 12), chars(alnum + "!$%*-_", 6, 24)).map(([user, password]) => ({
    text: `https://${user}:${password}@db.example.com/x`,
    secret: `:${password}@`,
  })),
  chars(alnum + "._-", 20, 60).map((token) => ({ text: `Bearer ${token}`, secret: token })),
  chars(alnum + "+/", 40, 64).map((body) => ({
    text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n${body}\n-----END OPENSSH PRIVATE KEY-----`,
    secret: body,
  })),
  fc
    .tuple(
      fc.constantFrom("API_TOKEN", "db_password", "clientSecret", "X-API-Key", "AccountKey"),
      fc.constantFrom("=", ": ", " = ", ":"),
      // A value never starts with `=`: `TOKEN==x` reads as a comparison.
      fc.tuple(chars(alnum, 1, 1), chars(alnum + "+/=-_.!", 5, 40)).map(([a, b]) => a + b),
      fc.constantFrom("", '"', "'"),
    )
    .map(([key, separator, value, quote]) => ({
      text: `${key}${separator}${quote}${value}${quote}`,
      secret: value,
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

  it("is idempotent and finds spans that never overlap", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            secret.map((s) => s.text),
            fc.string(),
          ),
          { maxLength: 8 },
        ),
        (parts) => {
          const text = parts.join(" ");
          const once = redact(text);
          expect(redact(once)).toBe(once);
          const spans = secretSpans(text);
          spans.forEach((span, index) => {
            expect(span.end).toBeGreaterThan(span.start);
            expect(span.start).toBeGreaterThanOrEqual(spans[index - 1]?.end ?? 0);
          });
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe("redact leaves code alone", () => {
  it("keeps type annotations and literals next to secret-like names", () => {
    const code = "login(name: string, password: string) { const secret: boolean = true; }";
    expect(redact(code)).toBe(code);
    expect(redact("secret: true")).toBe("secret: true");
  });

  it("reads a spaced-out value to the end of its line, as YAML and INI do", () => {
    expect(redact("password: correct horse battery\nnext")).toBe(
      "password: [REDACTED:password]\nnext",
    );
    expect(redact("password = correct horse  \nnext")).toBe(
      "password = [REDACTED:password]  \nnext",
    );
    expect(redact("{ password: hunter22, user: ada }")).toBe(
      "{ password: [REDACTED:password], user: ada }",
    );
    expect(redact("DB_PASSWORD=hunter22 psql")).toBe("DB_PASSWORD=[REDACTED:password] psql");
  });

  it("still redacts a real value after such a name", () => {
    expect(redact("password: hunter22")).toBe("password: [REDACTED:password]");
    expect(redact("password: stringent-pw")).toContain("[REDACTED:password]");
  });
});
