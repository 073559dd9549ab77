import { patternSpans, type Detector } from "./secret-span.js";

// `scheme://user:password@` and `scheme://:password@` (Redis): the user and password. Scheme and
// parts are bounded; the scheme is checked behind each `://`, which is all the scan looks for,
// wherever it starts (`+postgres://` in a diff, `mongodb+srv://`).
const USER_INFO = /:\/\/(?<=[a-z][\w+.-]{0,15}:\/\/)([^\s"'\\/:@]{0,256}:[^\s"'\\/@]{1,256})@/dgi;
// Webhook URLs whose path is the secret: Slack's and Discord's.
const SLACK_WEBHOOK = /hooks\.slack\.com\/(?:services|workflows|triggers)\/([\w+/-]+)/dg;
const DISCORD_WEBHOOK = /discord(?:app)?\.com\/api\/webhooks\/(\d+\/[\w-]+)/dg;

/** Credentials carried in URLs: the user info before `@`, a webhook's secret path. */
export const credentialUrls: Detector = (text) => [
  ...patternSpans(text, USER_INFO, "url_credentials", 1, (match) => {
    return !(match[1] ?? "").startsWith("[REDACTED:");
  }),
  ...patternSpans(text, SLACK_WEBHOOK, "slack_webhook", 1),
  ...patternSpans(text, DISCORD_WEBHOOK, "discord_webhook", 1),
];
