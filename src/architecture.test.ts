import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = dirname(fileURLToPath(import.meta.url));
const core = join(src, "core");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bfrom\s+["']([^"']+)["']/g)].map((match) => match[1] ?? "");
}

describe("architecture", () => {
  it("keeps src/core pure: no import leaves src/core and none is a Node built-in or package", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(core)) {
      for (const specifier of importsOf(file)) {
        const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : specifier;
        if (!specifier.startsWith(".") || relative(core, target).startsWith("..")) {
          offenders.push(`${relative(src, file)} imports ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("finds the core's source files, so the check above cannot pass vacuously", () => {
    expect(sourceFiles(core).length).toBeGreaterThan(10);
  });

  it("keeps src/index.ts a list of re-exports", () => {
    const lines = readFileSync(join(src, "index.ts"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.trim().startsWith("//"));
    const joined = lines.join("\n");
    const statements = joined.split(";").filter((statement) => statement.trim() !== "");
    for (const statement of statements) expect(statement.trim()).toMatch(/^export\b/);
  });
});
