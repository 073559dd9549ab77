/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { secretSpans } from "./redaction.js";

// Real runners' and reviewers' outputs hold test names, paths, `token` and `key` in every other
// line, and no secret but a few planted on purpose: redaction must leave the rest as it is, or
// the feedback loses its facts. Vite reads the files at build time: the core stays free of I/O.
// The hostile corpus is left out: its documents are made of secrets' shapes on purpose.
const files = import.meta.glob<string>(
  [
    "../../../fixtures/**/*.{txt,json,log,xml,md,yaml,jsonl,sarif}",
    "!../../../fixtures/hostile/**",
  ],
  { query: "?raw", import: "default", eager: true },
);

/** AWS's documented example key, written into a review comment. */
const PLANTED = "AKIAIOSFODNN7EXAMPLE";
/**
 * Credentials real projects' tests put in their data, redacted like any others: a session cookie
 * set-cookie-parser's tests split (`sessionid=6ky4…`), the password class-transformer's tests
 * give a user (`"password": "imnosuperman"`), rc9's config fixture (`"password": "db pass"`) and
 * pyjwt's signing keys (`secret`, jwt.io's `your-256-bit-secret`), quoted by their outputs,
 * facts and README rows.
 */
const TEST_DATA_CREDENTIALS: ReadonlySet<string> = new Set([
  "6ky4pkr7qoi4me7rwleyvxjove25huef",
  "imnosuperman",
  "db pass",
  "secret",
  "your-256-bit-secret",
]);

describe("redaction on the fixtures' real outputs", () => {
  it("reads hundreds of them", () => {
    expect(Object.keys(files).length).toBeGreaterThan(200);
  });

  it("redacts nothing but the secrets written into them", () => {
    const redacted = Object.entries(files).flatMap(([path, text]) =>
      secretSpans(text).map((span) => ({
        path,
        kind: span.kind,
        secret: text.slice(span.start, span.end),
      })),
    );
    // Besides the key: credentials in URLs, which tests of URL parsers put in their names
    // (`test_url_valid[http://user:pass@example.com]`), and the tokens a JWT decoder's own tests
    // decode (jwt-decode's code frames quote them). They are redacted like any others.
    const others = redacted.filter(
      ({ kind, secret, path }) =>
        secret !== PLANTED &&
        !TEST_DATA_CREDENTIALS.has(secret) &&
        kind !== "url_credentials" &&
        !(kind === "jwt" && path.includes("/jwt-decode-")),
    );
    expect(others).toEqual([]);
    expect(redacted.map(({ secret }) => secret)).toContain(PLANTED);
  });
});
