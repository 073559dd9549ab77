/**
 * What a key's name says about its value. `strong`: the name alone says the value is a secret
 * (`DB_PASSWORD`, `apiKey`, `SecretAccessKey`), so any real value is redacted; weak: the name
 * may hold one (`key`, `token`, `auth`, `sig`), so only a value that looks generated is.
 */
export interface SecretName {
  readonly kind: "password" | "secret" | "authorization";
  readonly strong: boolean;
}

/** Words that mark a name as a password's, then a secret's, whatever comes before them. */
const PASSWORD_WORDS = new Set(["password", "passwd", "passphrase", "passcode", "pword"]);
const SECRET_WORDS = new Set(["secret", "secrets", "credential", "credentials", "creds"]);
/**
 * Short words that say password only after a qualifier: `MYSQL_PWD` and `DB_PASS` name one,
 * `PWD` is a directory and `--- PASS:` a Go test passing.
 */
const SHORT_PASSWORD_WORDS = new Set(["pwd", "pass", "pw"]);
/** Words that may name a secret and may not: their value must look generated on its own. */
const WEAK_WORDS = new Set(["auth", "sig", "signature", "private", "session", "sessionid"]);
/** What makes a `key` a secret one: `api_key`, `AccountKey`, `x-api-key`, `signingKey`. */
const KEY_QUALIFIERS = new Set([
  "access",
  "account",
  "admin",
  "aes",
  "api",
  "app",
  "auth",
  "client",
  "consumer",
  "crypto",
  "deploy",
  "enc",
  "encryption",
  "gpg",
  "hmac",
  "jwt",
  "license",
  "licence",
  "master",
  "pgp",
  "private",
  "root",
  "sas",
  "secret",
  "service",
  "session",
  "shared",
  "sign",
  "signing",
  "ssh",
  "storage",
  "subscription",
  "webhook",
]);
/** Words that may follow the secret word and still name it: `password_hash`, `SECRET_KEY_BASE`. */
const QUALIFIERS = new Set([
  "b64",
  "base",
  "base64",
  "data",
  "digest",
  "enc",
  "encrypted",
  "hash",
  "hex",
  "key",
  "plain",
  "plaintext",
  "raw",
  "str",
  "string",
  "text",
  "token",
  "value",
]);
/** Endings that make one lower-case word a secret's name: `PGPASSWORD`, `authtoken`, `apikey`. */
const COMPOUND_ENDINGS = ["password", "passwd", "secret", "token", "key"] as const;

/** `SecretAccessKey`, `DB_PASSWORD`, `x-api-key` → their words, lower case; numbers dropped. */
function words(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_.$@-]+/)
    .filter((word) => word !== "" && !/^\d+$/.test(word))
    .map((word) => word.toLowerCase());
}

/** What one word of a name says, given whether a word comes before it and which. */
function wordMeaning(word: string, previous: string | undefined): SecretName | null {
  const qualified = previous !== undefined;
  if (PASSWORD_WORDS.has(word)) return { kind: "password", strong: true };
  if (SECRET_WORDS.has(word)) return { kind: "secret", strong: true };
  if (SHORT_PASSWORD_WORDS.has(word)) return qualified ? { kind: "password", strong: true } : null;
  if (word === "token") return { kind: "secret", strong: qualified };
  if (word === "key") return { kind: "secret", strong: KEY_QUALIFIERS.has(previous ?? "") };
  if (word === "authorization") return { kind: "authorization", strong: true };
  if (WEAK_WORDS.has(word)) return { kind: "secret", strong: false };
  for (const ending of COMPOUND_ENDINGS) {
    const prefix = word.slice(0, -ending.length);
    if (prefix === "" || !word.endsWith(ending)) continue;
    if (ending !== "key" || KEY_QUALIFIERS.has(prefix)) {
      return { kind: ending.startsWith("pass") ? "password" : "secret", strong: true };
    }
  }
  return null;
}

/**
 * What a key's name says about its value: the last word that names a secret decides, and only
 * qualifiers may follow it, so `token_type`, `key_id`, `KeyError` and `PasswordResetForm` name
 * no secret. Null when the name says nothing.
 */
export function secretName(name: string): SecretName | null {
  const parts = words(name);
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    const part = parts[index] ?? "";
    const meaning = wordMeaning(part, parts[index - 1]);
    if (meaning !== null) return meaning;
    if (!QUALIFIERS.has(part)) return null;
  }
  return null;
}
