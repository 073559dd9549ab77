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
  /\s\w+=https?:\/\/\S+$/u,
  /\s*Useful\? React with 👍\s*\/\s*👎\.?\s*$/u,
];

/** A finding's words without bot chrome (see `NOISE`), spaces collapsed. */
export function withoutNoise(message: string): string {
  return NOISE.reduce((text, pattern) => text.replace(pattern, " "), message)
    .replace(/\s+/g, " ")
    .trim();
}
