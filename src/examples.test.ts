import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "./cli/main.js";
import { requireBuild } from "./runner/test-support/built-cli.js";

// Every example the docs point at states what it must yield in an `# expect:` line;
// running them all keeps docs/semantics.md and the README honest.
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const folders = ["examples/seed", "examples/semantics"].map((folder) => join(root, folder));

interface Example {
  readonly file: string;
  readonly command: "verdict" | "decide";
  readonly expectations: readonly (readonly [path: string, value: string])[];
}

function examples(): Example[] {
  return folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => {
        const file = join(folder, name);
        const line = readFileSync(file, "utf8")
          .split("\n")
          .find((text) => text.startsWith("# expect: "));
        if (line === undefined) throw new Error(`${file} has no "# expect:" line`);
        const expectations = line
          .slice("# expect: ".length)
          .split(/ (?=[a-z_.]+=)/)
          .map((pair) => {
            const at = pair.indexOf("=");
            return [pair.slice(0, at), pair.slice(at + 1)] as const;
          });
        return {
          file,
          command: basename(file).startsWith("verdict") ? "verdict" : "decide",
          expectations,
        } satisfies Example;
      }),
  );
}

function at(document: unknown, path: string): string {
  let node = document;
  for (const key of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(node) ? node.join(",") : String(node);
}

describe("documented examples", () => {
  const all = examples();

  it("covers both folders", () => {
    expect(all.length).toBeGreaterThanOrEqual(25);
  });

  it.each(all.map((example) => [relative(root, example.file), example] as const))(
    "%s yields what it says",
    async (_name, example) => {
      let stdout = "";
      let stderr = "";
      const code = await main([example.command, example.file], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
      });
      expect(stderr).toBe("");
      expect(code).toBe(0);
      const output: unknown = parse(stdout);
      for (const [path, value] of example.expectations) expect(at(output, path), path).toBe(value);
    },
  );
});

// The git-restore demo prints what its README shows: a task in a git worktree, `loopgate diff`,
// a restore of the best attempt and the attempt after it. Step durations vary and are masked.
describe("examples/git-restore", () => {
  it("prints the output its README shows", () => {
    requireBuild();
    const readme = readFileSync(join(root, "examples/git-restore/README.md"), "utf8");
    const shown = /```console\n\$ sh examples\/git-restore\/demo\.sh\n([\s\S]*?)```/.exec(
      readme,
    )?.[1];
    expect(shown).toBeDefined();
    const ran = spawnSync("sh", [join(root, "examples/git-restore/demo.sh")], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
    const masked = (text: string) => text.replace(/ \d+\.\ds$/gm, " 0.0s");
    expect(masked(ran.stdout)).toBe(masked(shown ?? ""));
  });
});
