import { describe, expect, it } from "vitest";
import { withoutNoise } from "./message-noise.js";

describe("withoutNoise", () => {
  it.each([
    [
      "summary=_⚠️ Potential issue_ | _🟠 Major_ Drop the absolute path. url=https://github.com/o/r/pull/1#discussion_r2",
      "Drop the absolute path.",
    ],
    [
      "_⚠️ Potential issue_ | _🟡 Minor_ 🧩 Analysis chain 🌐 Web query: Does Wazuh expand ${VAR}?",
      "Does Wazuh expand ${VAR}?",
    ],
    [
      "Reject truncated calls. The parser heals them. Useful? React with 👍 / 👎.",
      "Reject truncated calls. The parser heals them.",
    ],
  ])("drops a bot's chrome from %j", (message, words) => {
    expect(withoutNoise(message)).toBe(words);
  });

  it.each([
    "Rename snake_case_name to camelCase",
    "Set timeout=30 in the config",
    "See https://example.com/docs for the url=scheme",
  ])("keeps a finding's own words: %j", (message) => {
    expect(withoutNoise(message)).toBe(message);
  });
});
