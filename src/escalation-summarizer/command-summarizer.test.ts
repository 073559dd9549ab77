import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runMain } from "../cli/test-support/run-main.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-summarizer-"));

/** A tiny node script as the summarizer command; `body` sees the escalation JSON as `input`. */
function script(name: string, body: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => { const input = JSON.parse(text); ${body} });`,
  );
  return `node ${JSON.stringify(file)}`;
}

const SEED = "examples/seed/escalation.yaml";

/** The deterministic output, which every failing summarizer must leave as it is. */
const deterministic = await runMain(["decide", SEED]);

describe("loopgate decide --summarizer", () => {
  it("prints the escalation as the command rewrote it", async () => {
    const rewrite = script(
      "rewrite",
      `const d = input.decision; process.stdout.write(JSON.stringify({ pattern_detected: "userId: " + d.options.length + " ways out", question: "Pick one:\\n" + d.options.map((o) => o.id + ". " + o.label).join("\\n") }));`,
    );
    const run = await runMain(["decide", SEED, "--summarizer", rewrite, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const { decision } = JSON.parse(run.stdout) as {
      decision: { context: { pattern_detected: string }; question: string; options: unknown[] };
    };
    expect(decision.context.pattern_detected).toBe("userId: 2 ways out");
    expect(decision.question).toBe(
      "Pick one:\n1. String (update test)\n2. Number (update implementation)",
    );
    expect(decision.options).toHaveLength(2);
  });

  it.each([
    [
      "fails",
      script("fails", `process.stderr.write("no model"); process.exit(3);`),
      /exited with 3: no model/,
      "20000",
    ],
    [
      "writes invalid JSON",
      script("garbage", `process.stdout.write("{not json");`),
      /JSON/,
      "20000",
    ],
    [
      "writes an invalid document",
      script("invalid", `process.stdout.write(JSON.stringify({ question: ["x"] }));`),
      /question/,
      "20000",
    ],
    [
      "times out",
      script("slow", `setTimeout(() => process.stdout.write("{}"), 60000);`),
      /timed out after 300 ms/,
      "300",
    ],
  ])(
    "prints the deterministic escalation when the command %s",
    async (_, command, why, timeout) => {
      const warnings = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      const run = await runMain([
        "decide",
        SEED,
        "--summarizer",
        command,
        "--summarizer-timeout",
        timeout,
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(deterministic.stdout);
      expect(String(warnings.mock.calls[0]?.[0])).toMatch(why);
      warnings.mockRestore();
    },
  );

  it("refuses a timeout that is no number", async () => {
    const run = await runMain([
      "decide",
      SEED,
      "--summarizer",
      "cat",
      "--summarizer-timeout",
      "soon",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("`--summarizer-timeout`");
  });
});
