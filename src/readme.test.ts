import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "./cli/main.js";

// The README shows real output; this test re-runs every plain `$ npx loopgate …` example in
// its console blocks and compares, so the README cannot drift from the CLI.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

interface ShownRun {
  readonly argv: readonly string[];
  readonly output: string;
}

function shownRuns(): ShownRun[] {
  const blocks = [...readme.matchAll(/```console\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  return blocks.flatMap((block) =>
    block
      .split(/^\$ /m)
      .filter((chunk) => chunk.startsWith("npx loopgate ") && !chunk.split("\n")[0]!.includes("|"))
      .map((chunk) => {
        const [command = "", ...output] = chunk.split("\n");
        return { argv: command.split(" ").slice(2), output: output.join("\n") };
      }),
  );
}

describe("README examples", () => {
  const runs = shownRuns();

  it("finds the examples", () => {
    expect(runs.length).toBeGreaterThanOrEqual(3);
  });

  it.each(runs.map((run) => [run.argv.join(" "), run] as const))(
    "loopgate %s prints what the README shows",
    async (_name, run) => {
      let stdout = "";
      const code = await main(run.argv, {
        stdout: (text) => (stdout += text),
        stderr: () => undefined,
      });
      expect(code).toBe(0);
      expect(stdout).toBe(run.output);
    },
  );
});
