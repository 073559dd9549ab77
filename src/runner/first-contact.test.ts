import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { cli, requireBuild, ROOT } from "./test-support/built-cli.js";
import { fixtureProject } from "./test-support/fixture-project.js";

// What a first-time user reads off the built CLI when a task pauses, is aborted, or has a
// reviewer that prints a bad verdict.

beforeAll(requireBuild);

describe("first contact with a pause", () => {
  it("lists the question once and each option once with its guidance, off a terminal", () => {
    const fixture = fixtureProject({ passFrom: 9 });
    const run = cli(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir);
    expect(run.status).toBe(3);
    const hint = run.stderr.slice(run.stderr.indexOf("awaits an answer"));
    const occurrences = (text: string) => hint.split(text).length - 1;
    expect(occurrences("Continue with guidance (grant more attempts)")).toBe(1);
    expect(occurrences("Abort this task")).toBe(1);
    expect(hint).toContain("     Give up on this task and move on to the next one.");
    expect(occurrences("How should this task continue?")).toBe(1);
  });

  it("reads an abort as the human's", () => {
    const fixture = fixtureProject({ passFrom: 9 });
    expect(cli(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir).status).toBe(3);
    expect(cli(["answer", "task-1", "--abort", "--by", "ada", "--db", fixture.db]).status).toBe(0);
    const resume = cli(["resume", "--db", fixture.db], {}, fixture.dir);
    expect(resume.status).toBe(0);
    expect(resume.stderr).toMatch(/task-1 #3\/3 abort \(APPROVAL_GATE\).* — Aborted by ada\. /);
  });

  it("names the value of an invalid review verdict in the retry line", () => {
    const fixture = fixtureProject({ passFrom: 1 });
    const document = parse(readFileSync(fixture.taskFile, "utf8")) as {
      steps: Record<string, unknown>;
      iteration_control: Record<string, unknown>;
    };
    document.steps.review = { command: ["sh", "-c", `echo '{"status": "maybe"}'`] };
    document.iteration_control.max_iterations = 1;
    writeFileSync(fixture.taskFile, stringify(document));
    const run = cli(["run", fixture.taskFile, "--db", fixture.db], {}, fixture.dir);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("review: reject");
    expect(run.stderr).toMatch(/escalate \(MAX_ITERATIONS\)/);
    expect(run.stderr).toContain('invalid verdict {"status": "maybe"}');
  });
});

describe("first contact with the package", () => {
  it("packs what the README's install uses: the CLI, the built library, the docs and the schema", () => {
    const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(packed.status).toBe(0);
    const [tarball] = JSON.parse(packed.stdout) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = new Set(tarball?.files.map((file) => file.path));
    expect(tarball?.filename).toMatch(/^loopgate-\d+\.\d+\.\d+\.tgz$/);
    for (const path of [
      "bin/loopgate.js",
      "dist/cli.cjs",
      "dist/index.js",
      "dist/index.d.ts",
      "README.md",
      "docs/semantics.md",
      "docs/runner.md",
      "schema/task-file.schema.json",
    ]) {
      expect(files, path).toContain(path);
    }
    expect([...files].filter((path) => path.includes(".test."))).toEqual([]);
  });

  it("imports the pure API without loading the SQLite addon", () => {
    const script = `
      import { createRequire } from "node:module";
      const { verdict } = await import(${JSON.stringify(join(ROOT, "dist", "index.js"))});
      verdict({ counters: { iteration: 1 }, policy: { maxIterations: 3 } });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      process.stdout.write(String(loaded.filter((path) => path.includes("better-sqlite3")).length));
    `;
    const ran = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe("0");
  });
});
