/**
 * Bot chrome inside a finding's words, which says nothing the point does not already carry:
 * CodeRabbit's label run with the `key=` a supervisor's list writes before it
 * (`summary=_⚠️ Potential issue_ | _🟠 Major_`, its level is the point's priority), its
 * `🧩 Analysis chain` and `🌐 Web query:` markers, a `url=…` field (the thread, not the
 * finding) and Codex's `Useful? React with 👍 / 👎.` footer.
 */
const NOISE = [
  /(?:^|\s)(?:\w+=)?_[^_|]{1,60}_(?:\s*\|\s*_[^_|]{1,60}_){1,5}(?=\s|$)/gu,
  /🧩\s*Analysis chain|🌐\s*Web query:?/gu,
  /Useful\? React with 👍 ?\/ ?👎\.?/gu,
];

/** A field naming the thread a finding came from (`url=https://…`), as the last word. */
const URL_FIELD = /^\w{1,20}=https?:\/\//u;

/** A finding's words without bot chrome (see `NOISE`), spaces collapsed. */
export function withoutNoise(message: string): string {
  const words = NOISE.reduce((text, pattern) => text.replace(pattern, " "), message)
    .replace(/\s+/g, " ")
    .trim();
  const last = words.lastIndexOf(" ");
  return last > 0 && URL_FIELD.test(words.slice(last + 1)) ? words.slice(0, last) : words;
}
