/** One credential shape: what it is called in the marker and how it is found. */
interface CredentialPattern {
  readonly kind: string;
  readonly pattern: RegExp;
  /** The replacement for one match; keeps the non-secret parts (scheme, header name). */
  readonly replace: (match: string, ...groups: string[]) => string;
}

const marker = (kind: string): string => `[REDACTED:${kind}]`;
const whole = (kind: string) => (): string => marker(kind);

// Ordered: headers before bare bearer tokens so `Authorization: Bearer x` is one redaction, and
// URL credentials before key=value pairs so the host survives.
const PATTERNS: readonly CredentialPattern[] = [
  {
    kind: "authorization",
    pattern:
      /\b(authorization["']?[ \t]*[:=][ \t]*["']?)(?:(?:basic|bearer|token|digest)[ \t]+)?(?!\[REDACTED)[^\s"',]+/gi,
    replace: (_match, header = "") => header + marker("authorization"),
  },
  {
    kind: "bearer_token",
    pattern: /\b(bearer[ \t]+)[\w.~+/-]{8,}=*/gi,
    replace: (_match, scheme = "") => scheme + marker("bearer_token"),
  },
  {
    kind: "jwt",
    pattern: /\beyJ[\w-]+\.eyJ[\w-]+\.[\w-]*/g,
    replace: whole("jwt"),
  },
  {
    kind: "aws_access_key",
    pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
    replace: whole("aws_access_key"),
  },
  {
    kind: "github_token",
    pattern: /\b(?:gh[oprsu]_[A-Za-z0-9]{20,}|github_pat_\w{20,})/g,
    replace: whole("github_token"),
  },
  {
    kind: "api_key",
    // Covers OpenAI (`sk-`, `sk-proj-`) and Anthropic (`sk-ant-api03-`) style keys.
    pattern: /\bsk-[\w-]{20,}/g,
    replace: whole("api_key"),
  },
  {
    kind: "slack_token",
    pattern: /\bxox[abprs]-[\w-]{10,}/g,
    replace: whole("slack_token"),
  },
  {
    kind: "url_credentials",
    // Bounded scheme: an unbounded one would rescan long dotted words from every boundary.
    pattern: /\b([a-z][\d+.a-z-]{0,15}:\/\/)[^\s/:@]{1,256}:[^\s/@]{1,256}@/gi,
    replace: (_match, scheme = "") => `${scheme}${marker("url_credentials")}@`,
  },
  {
    kind: "password",
    // Preceded by anything but a letter or digit, so `DB_PASSWORD=` counts and `mypassword=` not.
    // Type names and literals are code, not secrets: `password: string` in a diff stays readable.
    pattern:
      /(?<![\da-z])((?:password|passwd|pwd|secret|client_secret|aws_secret_access_key|api_?key)["']?[ \t]*[:=][ \t]*["']?)(?!\[REDACTED|(?:string|number|boolean|true|false|null|undefined|none|any|str|int|bool)\b)[^\s"'&,;]{3,}/gi,
    replace: (_match, assignment = "") => assignment + marker("password"),
  },
];

/**
 * `text` with credential-like strings replaced by `[REDACTED:kind]` (SPEC §4): JWTs, AWS access
 * keys, GitHub/OpenAI/Anthropic/Slack tokens, PEM private keys, passwords in URLs and
 * assignments, bearer tokens and Authorization headers. Errs toward redacting: a false positive
 * costs a few characters of feedback, a miss leaks a secret into a prompt or a journal.
 */
export function redact(text: string): string {
  let result = redactPrivateKeys(text);
  for (const { pattern, replace } of PATTERNS) {
    result = result.replace(pattern, replace);
  }
  return result;
}

const PEM_BEGIN = "-----BEGIN ";
const PEM_DASHES = "-----";
const PEM_END = "-----END ";

/**
 * PEM private key blocks, found with `indexOf` rather than a lazy regex so that a log full of
 * unterminated headers stays linear. A block cut off before its END line (a truncated log) is
 * redacted up to the end of its base64 body.
 */
function redactPrivateKeys(text: string): string {
  let result = "";
  let cursor = 0;
  for (;;) {
    const begin = text.indexOf(PEM_BEGIN, cursor);
    if (begin < 0) break;
    const labelEnd = text.indexOf(PEM_DASHES, begin + PEM_BEGIN.length);
    const label = labelEnd < 0 ? "" : text.slice(begin + PEM_BEGIN.length, labelEnd);
    if (!label.endsWith("PRIVATE KEY") || label.includes("\n")) {
      result += text.slice(cursor, begin + PEM_BEGIN.length);
      cursor = begin + PEM_BEGIN.length;
      continue;
    }
    const bodyStart = labelEnd + PEM_DASHES.length;
    const end = text.indexOf(PEM_END, bodyStart);
    const endLabelEnd = end < 0 ? -1 : text.indexOf(PEM_DASHES, end + PEM_END.length);
    const blockEnd =
      endLabelEnd < 0 ? endOfBase64Body(text, bodyStart) : endLabelEnd + PEM_DASHES.length;
    result += text.slice(cursor, begin) + marker("private_key");
    cursor = blockEnd;
  }
  return result + text.slice(cursor);
}

/** Where the base64 lines (and the legacy `Proc-Type:` / `DEK-Info:` headers) after `start` stop. */
function endOfBase64Body(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    const lineEnd = text.indexOf("\n", index + 1);
    const stop = lineEnd < 0 ? text.length : lineEnd;
    const line = text.slice(index, stop).trim();
    const isBody = /^[\d+/=a-z]+$/i.test(line) || /^(?:Proc-Type|DEK-Info):/.test(line);
    if (line.length > 0 && !isBody) return index;
    index = stop;
  }
  return text.length;
}
