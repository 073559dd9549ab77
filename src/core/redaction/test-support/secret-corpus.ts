/*
 * Real-format secrets with fake values, one per kind, as they show up in logs, configs and
 * commands. Shared by the redaction tests and the test that plants them in every sink. The
 * values are drawn from a seeded generator: random-looking like real ones, the same every run.
 */

/** One secret as it appears in text, and the part of it that must never survive. */
export interface PlantedSecret {
  /** What the secret is, for test names. */
  readonly name: string;
  /** The line (or lines) the secret is written in, as a log, config or command prints it. */
  readonly text: string;
  /** The secret itself: neither it nor any 8-character piece of it may be printed or stored. */
  readonly secret: string;
}

/** Length of the shortest piece of a secret that counts as a leak. */
export const LEAK_PIECE = 8;

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const BASE64 = `${ALNUM}+/`;
const BASE64URL = `${ALNUM}-_`;
const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

let state = 0x2545f491;

/** `length` characters of `alphabet` from a fixed-seed generator (xorshift32). */
function fake(length: number, alphabet = ALNUM): string {
  let result = "";
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    result += alphabet[(state >>> 0) % alphabet.length];
  }
  return result;
}

/** Base64 lines of a key body, 64 characters each. */
function keyBody(lines: number): string[] {
  return Array.from({ length: lines }, () => fake(64, BASE64));
}

/** An armored private key block and its body. */
function block(label: string, lines: number, headers: readonly string[] = []): PlantedSecret {
  const body = keyBody(lines);
  return {
    name: label.toLowerCase(),
    text: [`-----BEGIN ${label}-----`, ...headers, ...body, `-----END ${label}-----`].join("\n"),
    secret: body.join("\n"),
  };
}

/** A secret written whole: the token is the secret. */
function token(name: string, value: string, line = (secret: string) => secret): PlantedSecret {
  return { name, text: line(value), secret: value };
}

/** A secret whose line is built around it: `line(secret)`. */
function within(name: string, secret: string, line: (secret: string) => string): PlantedSecret {
  return { name, text: line(secret), secret };
}

const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${fake(60, BASE64URL)}.${fake(43, BASE64URL)}`;
const pkcs8Body = keyBody(4);
const dockerAuth = btoa(`ada:${fake(14)}`);

/** Every kind, each in the shape a real log or file carries it. */
export const SECRET_CORPUS: readonly PlantedSecret[] = [
  token("JWT", jwt, (value) => `received token ${value} for ada`),
  token("AWS access key id", `AKIA${fake(16, UPPER_DIGITS)}`),
  token(
    "AWS temporary access key id",
    `ASIA${fake(16, UPPER_DIGITS)}`,
    (v) => `"AccessKeyId": "${v}"`,
  ),
  within("AWS secret access key (env)", fake(40, BASE64), (v) => `AWS_SECRET_ACCESS_KEY=${v}`),
  within("AWS secret access key (JSON)", fake(40, BASE64), (v) => `  "SecretAccessKey": "${v}",`),
  within("AWS session token (JSON)", `IQoJb3JpZ2luX2Vj${fake(120, BASE64)}`, (v) => {
    return `  "SessionToken": "${v}",`;
  }),
  token("GitHub personal access token", `ghp_${fake(36)}`),
  token("GitHub OAuth token", `gho_${fake(36)}`, (v) => `git push https://${v}@github.com/o/r`),
  token("GitHub app token", `ghs_${fake(36)}`, (v) => `GITHUB_TOKEN: ${v}`),
  token("GitHub fine-grained token", `github_pat_11${fake(20)}_${fake(59)}`),
  token("GitLab token", `glpat-${fake(20, BASE64URL)}`, (v) => `PRIVATE-TOKEN: ${v}`),
  token("Stripe live secret key", `sk_live_${fake(99)}`, (v) => `Stripe.api_key = '${v}'`),
  token("Stripe restricted key", `rk_live_${fake(99)}`),
  token("Stripe webhook secret", `whsec_${fake(32)}`, (v) => `endpoint secret ${v}`),
  token("Google API key", `AIza${fake(35, BASE64URL)}`, (v) => `?key=${v}&q=x`),
  token("npm token", `npm_${fake(36)}`),
  within(
    ".npmrc _authToken",
    `${fake(8, HEX)}-${fake(4, HEX)}-${fake(4, HEX)}-${fake(12, HEX)}`,
    (v) => {
      return `//registry.npmjs.org/:_authToken=${v}`;
    },
  ),
  token("Hugging Face token", `hf_${fake(34, LETTERS)}`, (v) => `HF_TOKEN=${v}`),
  token("SendGrid key", `SG.${fake(22, BASE64URL)}.${fake(43, BASE64URL)}`),
  token("Slack bot token", `xoxb-${fake(12, HEX)}-${fake(13, HEX)}-${fake(24)}`),
  token(
    "Slack user token",
    `xoxp-${fake(12, HEX)}-${fake(12, HEX)}-${fake(13, HEX)}-${fake(32, HEX)}`,
  ),
  within(
    "Slack webhook URL",
    `T${fake(10, UPPER_DIGITS)}/B${fake(10, UPPER_DIGITS)}/${fake(24)}`,
    (v) => {
      return `POST https://hooks.slack.com/services/${v} failed`;
    },
  ),
  within("Discord webhook URL", `${fake(18, "0123456789")}/${fake(68, BASE64URL)}`, (v) => {
    return `https://discord.com/api/webhooks/${v}`;
  }),
  token("OpenAI project key", `sk-proj-${fake(48, BASE64URL)}`),
  token("Anthropic key", `sk-ant-api03-${fake(93, BASE64URL)}AA`),
  block("RSA PRIVATE KEY", 6),
  block("EC PRIVATE KEY", 3),
  block("OPENSSH PRIVATE KEY", 5),
  block("PGP PRIVATE KEY BLOCK", 6, ["Version: GnuPG v2", ""]),
  block("ENCRYPTED PRIVATE KEY", 4),
  block("RSA PRIVATE KEY", 4, ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,0A1B2C3D4E5F", ""]),
  {
    name: "private key in a JSON service account",
    text: `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${pkcs8Body.join("\\n")}\\n-----END PRIVATE KEY-----\\n", "client_email": "ci@p.iam.gserviceaccount.com"}`,
    secret: pkcs8Body.join("\\n"),
  },
  within(
    "password in an HTTPS URL",
    fake(16),
    (v) => `clone https://ada:${v}@git.example.com/r.git`,
  ),
  within(
    "Redis URL password without user",
    fake(20),
    (v) => `REDIS_URL=redis://:${v}@cache:6379/0`,
  ),
  within("Postgres URL password", fake(18), (v) => `postgres://app:${v}@db.internal:5432/app`),
  within("MongoDB URL password", fake(18), (v) => `mongodb+srv://root:${v}@cluster0.mongodb.net/`),
  within("Basic Authorization header", btoa(`ada:${fake(12)}`), (v) => {
    return `> Authorization: Basic ${v}`;
  }),
  within("Bearer Authorization header", fake(40, BASE64URL), (v) => `authorization: Bearer ${v}`),
  within("bearer token in curl", fake(32, BASE64URL), (v) => `curl -H "Bearer ${v}" https://api`),
  within("X-API-Key header", fake(32, HEX), (v) => `X-API-Key: ${v}`),
  within("Azure storage AccountKey", `${fake(86, BASE64)}==`, (v) => {
    return `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${v};EndpointSuffix=core.windows.net`;
  }),
  within("Azure SharedAccessKey", `${fake(43, BASE64)}=`, (v) => {
    return `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=${v}`;
  }),
  within("Azure SAS signature", `${fake(40, ALNUM)}%2B${fake(8)}%3D`, (v) => {
    return `https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030-01-01&sp=r&sig=${v}`;
  }),
  within("PGPASSWORD", fake(16), (v) => `PGPASSWORD=${v} psql -h db -U app`),
  within("mysql -p", fake(14), (v) => `mysql -u root -p${v} app < dump.sql`),
  within(
    "quoted password with spaces",
    `${fake(6)} ${fake(7)} ${fake(6)}`,
    (v) => `password = "${v}"`,
  ),
  within("API_TOKEN", fake(32), (v) => `export API_TOKEN=${v}`),
  within("docker config auths", dockerAuth, (v) => `{"auths":{"ghcr.io":{"auth":"${v}"}}}`),
  within("DB_PASSWORD", fake(12), (v) => `DB_PASSWORD=${v}`),
  within("JSON password", fake(12), (v) => `{"user": "ada", "password": "${v}"}`),
  within("YAML client_secret", fake(40, BASE64URL), (v) => `client_secret: ${v}`),
  within("--password flag", fake(14), (v) => `deploy --user ada --password=${v} --yes`),
  within("curl -u", fake(14), (v) => `curl -u ada:${v} https://api.example.com`),
  within("sshpass -p", fake(14), (v) => `sshpass -p ${v} ssh ada@host`),
  within("secret key setting", fake(50, BASE64URL), (v) => `SECRET_KEY = '${v}'`),
  within("webhook signature header", fake(64, HEX), (v) => `X-Hub-Signature-256: sha256=${v}`),
  token("PyPI token", `pypi-AgEIcHlwaS5vcmc${fake(70, BASE64URL)}`),
  token("Shopify token", `shpat_${fake(32, HEX)}`),
  token("DigitalOcean token", `dop_v1_${fake(64, HEX)}`),
  token("Vault token", `hvs.${fake(24, BASE64URL)}`, (v) => `VAULT_TOKEN=${v}`),
  token("age secret key", `AGE-SECRET-KEY-1${fake(58, UPPER_DIGITS)}`),
  token("Telegram bot token", `${fake(10, "0123456789")}:AA${fake(33, BASE64URL)}`, (v) => {
    return `https://api.telegram.org/bot${v}/sendMessage`;
  }),
  token("Databricks token", `dapi${fake(32, HEX)}`),
  token("Postman key", `PMAK-${fake(24, HEX)}-${fake(34, HEX)}`),
  token("Mailgun key", `key-${fake(32, HEX)}`),
  token("New Relic key", `NRAK-${fake(27, UPPER_DIGITS)}`),
  token("Atlassian token", `ATATT3xFfGF0${fake(170, BASE64URL)}`),
  token("Doppler token", `dp.pt.${fake(43)}`),
  token("Square token", `sq0atp-${fake(22, BASE64URL)}`),
  token("Linear key (a provider by shape)", `lin_api_${fake(40)}`),
  within("YAML apiKey", fake(32), (v) => `apiKey: "${v}"`),
];

/** The first piece of `planted.secret` (8 characters or more) that `output` holds, or null. */
export function leakedPiece(output: string, planted: PlantedSecret): string | null {
  const secret = planted.secret;
  for (let start = 0; start + LEAK_PIECE <= secret.length; start += 1) {
    const piece = secret.slice(start, start + LEAK_PIECE);
    if (output.includes(piece)) return piece;
  }
  return null;
}
