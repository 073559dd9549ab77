import { patternSpans, type Detector, type SecretSpan } from "./secret-span.js";

/**
 * `count` or more of `unit`, written so that V8 does not keep a backtracking entry per
 * character: `x{20,}` overflows its stack on a 10 MB run, `x{20}x*` does not.
 */
function atLeast(count: number, unit: string): string {
  return `${unit}{${count}}${unit}*`;
}

/**
 * Tokens whose provider stamps them with a prefix, and the shape that follows it. Every one is
 * matched only where a word starts (see `PREFIXED`), so a run of near-misses is read once.
 */
const PROVIDERS: readonly (readonly [kind: string, pattern: string])[] = [
  ["jwt", String.raw`eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*`],
  [
    "aws_access_key",
    String.raw`(?:A3T[A-Z\d]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z\d]{16}(?![A-Za-z\d])`,
  ],
  [
    "github_token",
    String.raw`gh[oprsu]_${atLeast(20, String.raw`[A-Za-z\d]`)}|github_pat_${atLeast(20, String.raw`\w`)}`,
  ],
  [
    "gitlab_token",
    String.raw`gl(?:pat|dt|ptt|rt|oas|cbt|imt|ft|soat|ffct|agent)-${atLeast(20, String.raw`[\w-]`)}`,
  ],
  [
    "stripe_key",
    String.raw`[rs]k_(?:live|test)_${atLeast(10, String.raw`[A-Za-z\d]`)}|whsec_${atLeast(20, String.raw`[A-Za-z\d+/]`)}`,
  ],
  ["google_api_key", `AIza${atLeast(30, String.raw`[\w-]`)}`],
  ["npm_token", `npm_${atLeast(30, String.raw`[A-Za-z\d]`)}`],
  ["huggingface_token", `hf_${atLeast(30, String.raw`[A-Za-z\d]`)}`],
  [
    "sendgrid_key",
    String.raw`SG\.${atLeast(16, String.raw`[\w-]`)}\.${atLeast(16, String.raw`[\w-]`)}`,
  ],
  [
    "slack_token",
    String.raw`xox[abeoprs]-${atLeast(10, String.raw`[\w-]`)}|xapp-\d-${atLeast(10, String.raw`[\w-]`)}`,
  ],
  // OpenAI (`sk-`, `sk-proj-`) and Anthropic (`sk-ant-api03-`) keys.
  ["api_key", `sk-${atLeast(20, String.raw`[\w-]`)}`],
  ["pypi_token", `pypi-AgEIcHlwaS5vcmc${atLeast(20, String.raw`[\w-]`)}`],
  ["shopify_token", String.raw`shp(?:at|ss|ca|pa)_[a-fA-F\d]{32}`],
  ["digitalocean_token", String.raw`do[opr]_v1_[a-f\d]{64}`],
  ["vault_token", String.raw`hv[bsr]\.${atLeast(24, String.raw`[\w-]`)}`],
  ["age_secret_key", String.raw`AGE-SECRET-KEY-1[\dA-Z]{58}`],
  ["mailgun_key", String.raw`key-[\da-f]{32}`],
  ["postman_key", String.raw`PMAK-[\da-f]{24}-[\da-f]{34}`],
  ["databricks_token", String.raw`dapi[\da-f]{32}(?:-\d+)?`],
  ["atlassian_token", `ATATT3${atLeast(50, String.raw`[\w=-]`)}`],
  ["square_token", `sq0(?:atp|csp)-${atLeast(22, String.raw`[\w-]`)}`],
  ["new_relic_key", String.raw`NRAK-[\dA-Z]{27}`],
  [
    "doppler_token",
    String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.${atLeast(40, String.raw`[A-Za-z\d]`)}`,
  ],
];

// One pass for all providers. The guard lets a match start only where no token character
// precedes it: from inside a run that failed (`eyJa-eyJa-…`) no new attempt starts, so every
// character is read by one attempt instead of by one attempt per prefix in the run. A `-`
// after a blank or another `-` starts a word (`-ghp_…` removed in a diff, `--token=…`).
/**
 * Every provider's token in one pattern, composed once at load from the list above (written as
 * one literal it would be unreadable); timed for linear growth like the product's literals.
 */
export const PREFIXED = new RegExp(
  String.raw`(?<![\w.])(?<![\w.]-)(?:${PROVIDERS.map(([, pattern]) => `(${pattern})`).join("|")})`,
  "g",
);

/** Telegram bot tokens often follow `bot` in an API URL, so only digits and `:` guard them. */
// eslint-disable-next-line regexp/optimal-quantifier-concatenation -- `x{30}x*`: see `atLeast`
const TELEGRAM = /(?<![\d:])\d{8,10}:AA[\w-]{30}[\w-]*/g;

/**
 * Any other provider's shape: a short prefix and `_` or `-` (`lin_api_`, `glsa_`, `sntrys_`)
 * before at least 20 letters and digits that look generated (see `generatedBody`).
 */
const GENERIC =
  // eslint-disable-next-line regexp/optimal-quantifier-concatenation -- `x{20}x*`: see `atLeast`
  /[_-](?<=(?<![\w.])(?<![\w.]-)[a-z][a-z\d]{1,11}(?:[_-][a-z\d]{1,11}){0,2}[_-])([a-z\d]{20}[a-z\d]*)\b/gi;

/** Letter case and digit, so a body's characters can be compared by class. */
function charClass(code: number): number {
  if (code >= 0x30 && code <= 0x39) return 0;
  return code >= 0x61 ? 1 : 2;
}

/**
 * A body drawn at random from letters and digits: all three classes present and the class
 * changing at 40% or more of its characters. A random body changes class at about 60%; words
 * in camel case (`shouldReturnHttp200WhenValid`) at about 30%, so test names stay readable.
 */
function generatedBody(body: string): boolean {
  let changes = 0;
  const seen = new Set<number>();
  for (let index = 0; index < body.length; index += 1) {
    const current = charClass(body.charCodeAt(index));
    seen.add(current);
    if (index > 0 && current !== charClass(body.charCodeAt(index - 1))) changes += 1;
  }
  return seen.size === 3 && changes >= 0.4 * (body.length - 1);
}

/** Provider-prefixed tokens: the known providers by name, others by their generated body. */
export const prefixedTokens: Detector = (text) => {
  const spans: SecretSpan[] = [];
  PREFIXED.lastIndex = 0;
  for (let match = PREFIXED.exec(text); match !== null; match = PREFIXED.exec(text)) {
    const index = match.slice(1).findIndex((group) => group !== undefined);
    const kind = PROVIDERS[index]?.[0] ?? "token";
    spans.push({ start: match.index, end: match.index + match[0].length, kind });
  }
  return [
    ...spans,
    ...patternSpans(text, TELEGRAM, "telegram_bot_token"),
    ...patternSpans(text, GENERIC, "token", 0, (match) => generatedBody(match[1] ?? "")).map(
      (span) => ({ ...span, start: prefixStart(text, span.start) }),
    ),
  ];
};

/** Where the prefix before `separator` starts: the body and its prefix are redacted together. */
function prefixStart(text: string, separator: number): number {
  let start = separator;
  while (start > 0 && /[\w-]/.test(text.charAt(start - 1))) start -= 1;
  return start;
}
