import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { requireBuild, ROOT } from "../runner/test-support/built-cli.js";
import { fixtureProject } from "../runner/test-support/fixture-project.js";

// bin/loopgate.js's V8 code cache, in a copy of the built CLI of its own (the shared one is left
// alone): `run` changes V8's flags as it starts, and a cache made after that would be rejected by
// every process that starts without them.

beforeAll(requireBuild);

/** A copy of bin/ and the bundle, resolving the project's node_modules, without a cache. */
function copiedCli(): { bin: string; bundle: string } {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-cache-"));
  mkdirSync(join(dir, "bin"));
  mkdirSync(join(dir, "dist"));
  for (const name of ["loopgate.js", "package.json"]) {
    copyFileSync(join(ROOT, "bin", name), join(dir, "bin", name));
  }
  copyFileSync(join(ROOT, "dist", "cli.cjs"), join(dir, "dist", "cli.cjs"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return { bin: join(dir, "bin", "loopgate.js"), bundle: join(dir, "dist", "cli.cjs") };
}

/** Whether a process started without changed flags, as this one is, accepts the cache. */
function accepted(bundle: string): boolean {
  const source = readFileSync(bundle, "utf8");
  const { size, mtimeMs } = statSync(bundle);
  const stamp = `${size}:${mtimeMs}\n`;
  const cache = readFileSync(`${bundle}.v8-cache`);
  expect(cache.toString("latin1", 0, stamp.length)).toBe(stamp);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) { ${source}\n})`,
    { filename: bundle, cachedData: cache.subarray(stamp.length) },
  );
  return script.cachedDataRejected === false;
}

describe("the CLI's code cache", () => {
  it("is not written by a run, whose flags no other process has, and is by the next command", () => {
    const { bin, bundle } = copiedCli();
    const fixture = fixtureProject({ passFrom: 1 });
    const node = (args: string[]) =>
      spawnSync(process.execPath, [bin, ...args, "--db", fixture.db], {
        cwd: fixture.dir,
        encoding: "utf8",
        timeout: 120_000,
      });
    expect(node(["run", fixture.taskFile, "--quiet"]).status).toBe(0);
    expect(existsSync(`${bundle}.v8-cache`)).toBe(false);
    expect(node(["status"]).status).toBe(0);
    expect(accepted(bundle)).toBe(true);
  });
});
