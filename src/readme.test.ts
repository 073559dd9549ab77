import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
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

// The library examples run too: each ```ts block, its "loopgate" import pointed at the built
// package, must run to its end with nothing on stderr.
describe("README library examples", () => {
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  const entry = JSON.stringify(pathToFileURL(join(root, "dist", "index.js")).href);

  it("finds them", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });

  it.each(blocks.map((block, index) => [index + 1, block] as const))(
    "example %i runs",
    (_index, block) => {
      const code = transformSync(block.replaceAll('from "loopgate"', `from ${entry}`), {
        loader: "ts",
        format: "esm",
      }).code;
      const file = join(mkdtempSync(join(tmpdir(), "loopgate-readme-")), "example.mjs");
      writeFileSync(file, code);
      const ran = spawnSync(process.execPath, [file], {
        cwd: root,
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(ran.stderr).toBe("");
      expect(ran.status).toBe(0);
    },
    180_000,
  );
});

// A link that only works in the author's checkout is a broken link for everyone else.
describe("documentation links", () => {
  const pages = [
    "README.md",
    ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`),
    ...readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith("README.md"))
      .map((name) => `src/${name}`),
  ];

  it.each(pages)("every relative link in %s resolves inside the repository", (page) => {
    const text = readFileSync(join(root, page), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1] ?? "")
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"))
      .map((target) => resolve(dirname(join(root, page)), decodeURI(target.split("#")[0] ?? "")))
      .filter((path) => !path.startsWith(root) || !existsSync(path));
    expect(broken).toEqual([]);
  });
});
