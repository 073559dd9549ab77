import { looksRandom } from "./looks-random.js";
import { isQuote } from "./quotes.js";
import { secretName, type SecretName } from "./secret-names.js";
import type { Detector, SecretSpan } from "./secret-span.js";

/** Where a name may hold a secret's word; the name around each hit is read by hand. */
const HINT = /pass|pw|secret|token|key|cred|auth|sig|private|session/gi;
/** Longest name read: a longer run of name characters is data, not a key. */
const MAX_NAME = 128;
/** Distinct names whose meaning one pass keeps. */
const MAX_NAMES_KEPT = 4096;
/** Longest value that may be code (`process.env.API_TOKEN`); a longer one is a value. */
const MAX_CODE = 128;
/** Shortest value a strong name's value must have to be redacted: `pw: 1` is a count. */
export const MIN_VALUE = 4;
/** Values that are code, not secrets: `password: string`, `token = null`, `apiKey?: undefined`. */
const CODE_WORDS = new Set([
  "any",
  "bool",
  "boolean",
  "bytes",
  "false",
  "int",
  "nil",
  "none",
  "null",
  "number",
  "object",
  "optional",
  "required",
  "str",
  "string",
  "true",
  "undefined",
  "unknown",
  "void",
]);
/** Authorization schemes: the credentials follow them. */
const SCHEMES =
  /^(?:basic|bearer|token|digest|negotiate|ntlm|hoba|mutual|sharedkey|aws4-hmac-sha256|apikey)[ \t]+/i;
/** Where an unquoted value ends; a backslash too, so an escaped quote in a JSON string stays. */
const VALUE_END = /[\s"'`,;&)\\\]}<>]/g;
/** Where a spaced-out value ends (`password: correct horse`): blanks do not end it. */
const LINE_VALUE_END = /[\n\r"'`,;&)\\\]}<>]/g;
/** Where a quoted value that is never closed ends: at any quote, so the text around keeps its own. */
const ANY_QUOTE = /["'`]/g;

/** `a-z A-Z 0-9 _ . -`: the characters of a key's name. */
function isNameChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2e ||
    code === 0x2d
  );
}

/**
 * `text.indexOf(needle, from)` for calls whose `from` only grows: each answer is kept until a
 * call starts past it, so many candidates in one long line share one scan of it.
 */
class NextIndex {
  private at = -1;
  private from = Infinity;

  constructor(
    private readonly text: string,
    private readonly find: (from: number) => number,
  ) {}

  /** The first position at or after `from`, or the text's length when there is none. */
  next(from: number): number {
    if (from < this.from || from > this.at) {
      const found = this.find(from);
      this.at = found < 0 ? this.text.length : found;
    }
    this.from = from;
    return this.at;
  }
}

/** Where the separator after a name ends (`=`, `:`, `:=`, quotes and blanks), or -1. */
function separatorEnd(text: string, nameEnd: number): number {
  let at = nameEnd;
  if (text[at] === "\\" && isQuote(text[at + 1] ?? "")) at += 2;
  else if (isQuote(text[at] ?? "")) at += 1;
  while (text[at] === " " || text[at] === "\t") at += 1;
  if (text.startsWith(":=", at)) at += 2;
  else if (text[at] === "=" && !"=>~".includes(text[at + 1] ?? "=")) at += 1;
  else if (text[at] === ":" && text[at + 1] !== ":") at += 1;
  else return -1;
  while (text[at] === " " || text[at] === "\t") at += 1;
  return at;
}

/** A value's extent, and where its first word ends (the value may hold blanks). */
interface Value {
  readonly start: number;
  readonly end: number;
  readonly firstWordEnd: number;
}

/** Scans one text: the shared forward-only searches its candidates use. */
class ValueReader {
  private readonly lineEnd: NextIndex;
  private readonly unquotedEnd: NextIndex;
  private readonly anyQuote: NextIndex;
  private readonly lineValueEnd: NextIndex;
  private readonly quoteAt: Map<string, NextIndex> = new Map();

  constructor(private readonly text: string) {
    this.lineEnd = new NextIndex(text, (from) => text.indexOf("\n", from));
    const searching = (pattern: RegExp) => (from: number) => {
      pattern.lastIndex = from;
      return pattern.exec(text)?.index ?? -1;
    };
    this.unquotedEnd = new NextIndex(text, searching(VALUE_END));
    this.anyQuote = new NextIndex(text, searching(ANY_QUOTE));
    this.lineValueEnd = new NextIndex(text, searching(LINE_VALUE_END));
  }

  /**
   * The value starting at `at`: quoted (up to its closing quote on the line; one never closed
   * ends at the next quote or the line's end), the rest of the line after a strong name and a
   * spaced separator (`password: correct horse`, as YAML and INI read it), or a bare run.
   */
  read(at: number, name: SecretName, spaced: boolean): Value {
    const text = this.text;
    const escaped = text[at] === "\\" && isQuote(text[at + 1] ?? "");
    const quote = escaped ? (text[at + 1] ?? "") : (text[at] ?? "");
    if (isQuote(quote)) {
      const start = at + (escaped ? 2 : 1);
      const line = this.lineEnd.next(start);
      const close = this.closingQuote(quote, start, escaped) - (escaped ? 1 : 0);
      const end = close <= line ? close : Math.min(this.anyQuote.next(start), line);
      return { start, end: Math.max(start, end), firstWordEnd: Math.max(start, end) };
    }
    if (spaced && name.strong) {
      let end = this.lineValueEnd.next(at);
      while (end > at && (text[end - 1] === " " || text[end - 1] === "\t")) end -= 1;
      return { start: at, end, firstWordEnd: Math.min(end, this.unquotedEnd.next(at)) };
    }
    const scheme = name.kind === "authorization" ? SCHEMES.exec(text.slice(at, at + 40)) : null;
    const from = at + (scheme?.[0].length ?? 0);
    const end = this.unquotedEnd.next(from);
    return { start: at, end, firstWordEnd: end };
  }

  /** The next `quote` from `from` that a backslash does not escape (for `\"…\"`, one that it does). */
  private closingQuote(quote: string, from: number, escaped: boolean): number {
    let finder = this.quoteAt.get(quote);
    if (finder === undefined) {
      finder = new NextIndex(this.text, (start) => this.text.indexOf(quote, start));
      this.quoteAt.set(quote, finder);
    }
    for (let at = finder.next(from); at < this.text.length; at = finder.next(at + 1)) {
      let backslashes = 0;
      while (this.text[at - 1 - backslashes] === "\\") backslashes += 1;
      if (backslashes % 2 === (escaped ? 1 : 0)) return at;
    }
    return this.text.length;
  }
}

/** Where code reads a secret from: `process.env.API_TOKEN`, `config.password`, `this.token`. */
const CODE_ROOTS = new Set([
  "app",
  "args",
  "argv",
  "body",
  "cfg",
  "conf",
  "config",
  "context",
  "ctx",
  "data",
  "env",
  "globalThis",
  "import",
  "input",
  "options",
  "opts",
  "os",
  "params",
  "process",
  "props",
  "req",
  "request",
  "secrets",
  "self",
  "settings",
  "state",
  "this",
  "user",
  "values",
  "vars",
  "window",
]);

/** Whether a value is code or a placeholder rather than a secret: a type, a variable, a call. */
function isCode(value: string): boolean {
  if (value.length > MAX_CODE) return false;
  if (value.startsWith("$") || value.startsWith("%")) {
    return /^\$\{?[a-z_]/i.test(value) || /^%[a-z_]\w*%$/i.test(value);
  }
  if (value.endsWith("(")) return /^[a-z_$][a-z_$.]*\($/i.test(value);
  const dot = value.indexOf(".");
  if (dot > 0 && CODE_ROOTS.has(value.slice(0, dot))) {
    return value
      .slice(dot + 1)
      .split(".")
      .every((part) => /^[a-z_$][\w$]*$/i.test(part));
  }
  return CODE_WORDS.has(value.toLowerCase());
}

/**
 * Whether the value of a name that says what it says is a secret worth redacting; a value
 * whose first word is code (`secret: boolean = true`) is code.
 */
function isSecretValue(text: string, value: Value, name: SecretName): boolean {
  const secret = text.slice(value.start, value.end);
  if (secret.startsWith("[REDACTED:")) return false;
  if (!name.strong) return looksRandom(secret);
  const firstWord = text.slice(value.start, value.firstWordEnd);
  return secret.length >= MIN_VALUE && !isCode(secret) && !isCode(firstWord);
}

/**
 * `KEY=value`, `key: value`, `"key": "value"` and `--key=value` whose key's name says secret,
 * token, password, key, credential, auth or sig (see `secretName`): the whole value, quoted or
 * not, is redacted; the name stays. A name is read only where it starts (never after `/`, so
 * paths stay), and every search of a value moves forward only, so the pass is linear.
 */
export const keyedValues: Detector = (text) => {
  const spans: SecretSpan[] = [];
  const values = new ValueReader(text);
  // A log repeats its keys: each name is judged once per text.
  const names = new Map<string, SecretName | null>();
  const nameOf = (name: string): SecretName | null => {
    let meaning = names.get(name);
    if (meaning === undefined) {
      meaning = secretName(name);
      if (names.size < MAX_NAMES_KEPT) names.set(name, meaning);
    }
    return meaning;
  };
  HINT.lastIndex = 0;
  for (let hit = HINT.exec(text); hit !== null; hit = HINT.exec(text)) {
    let start = hit.index;
    while (start > 0 && hit.index - start < MAX_NAME && isNameChar(text.charCodeAt(start - 1))) {
      start -= 1;
    }
    let end = hit.index + hit[0].length;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end += 1;
    HINT.lastIndex = end;
    if (end - start > MAX_NAME || (start > 0 && isNameChar(text.charCodeAt(start - 1)))) continue;
    if (text[start - 1] === "/") continue;
    const at = separatorEnd(text, end);
    const name = at < 0 ? null : nameOf(text.slice(start, end));
    if (name === null) continue;
    // `KEY=value` ends at a blank, as a shell reads it; `key: a b` and `key = a b` do not.
    const value = values.read(at, name, text[at - 1] === " " || text[at - 1] === "\t");
    if (value.end > value.start && isSecretValue(text, value, name)) {
      spans.push({ start: value.start, end: value.end, kind: name.kind });
      HINT.lastIndex = value.end;
    }
  }
  return spans;
};
