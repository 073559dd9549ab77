import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testFeedback } from "../core/feedback/test-feedback.js";
import { logFeedback } from "./log-feedback.js";
import { LogReducer } from "./log-reducer.js";
import { PrefixedLines } from "./prefixed-lines.js";

const jest = readFileSync(
  new URL("../../fixtures/runners/jest/assertions/output.txt", import.meta.url),
  "utf8",
);

/** Text in chunks of `size` characters, as a pipe delivers it. */
async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

const prefixed = (text: string, prefix: (index: number) => string): string =>
  text
    .split("\n")
    .map((line, index) => `${prefix(index)}${line}`)
    .join("\n");

const TRANSPORTS: readonly [string, (index: number) => string][] = [
  ["GitHub Actions", (index) => `2024-05-01T12:34:56.${String(1_000_000 + index)}Z `],
  ["docker compose", () => "app-1  | "],
  ["Turborepo", () => "web:test: "],
];

describe("PrefixedLines", () => {
  it.each(TRANSPORTS)(
    "a %s log streams to the bare log's failures, as the core reads it",
    async (_name, prefix) => {
      const log = prefixed(jest, prefix);
      const bare = testFeedback(jest, { maxLength: 500 });
      for (const size of [7, 4096]) {
        const { feedback } = await logFeedback(chunks(log, size), { kind: "test", maxLength: 500 });
        expect(feedback.failures).toEqual(bare.failures);
        expect(feedback.runner).toBe("jest");
      }
      expect(testFeedback(log, { maxLength: 500 }).failures).toEqual(bare.failures);
    },
  );

  it("passes a log without prefixes through as it is", () => {
    const direct = new LogReducer();
    direct.pushLines(jest, 0, jest.length);
    const reducer = new LogReducer();
    const lines = new PrefixedLines(reducer);
    lines.pushLines(jest, 0, jest.length);
    lines.end();
    expect(reducer.end()).toEqual(direct.end());
  });

  it("decides on the first lines, then strips the prefix from every later line", () => {
    const head = Array.from({ length: 150 }, (_, index) => `app-1  | line ${index}`);
    const reducer = new LogReducer({ headLines: 1000 });
    const lines = new PrefixedLines(reducer);
    const text = [...head, "app-1  | FAIL late"].join("\n");
    lines.pushLines(text, 0, text.length);
    lines.end();
    const kept = reducer.end().text.split("\n");
    expect(kept[0]).toBe("line 0");
    expect(kept.at(-1)).toBe("FAIL late");
  });
});
