import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../runner/test-support/built-cli.js";
import { fuzzRuns, fuzzSeed } from "../test-support/hostile/fuzz-runs.js";
import { hostileTaskFile } from "../test-support/hostile/hostile-task-files.js";

let root = "";
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), "loopgate-hostile-tasks-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Each case starts a process: a few in the default suite, more under npm run fuzz.
const RUNS = fuzzRuns(12, 0.02);

describe("loopgate run on a hostile task file (property, built CLI)", () => {
  it(
    "exits 2 with one line naming the field, prints nothing on stdout and journals nothing",
    () => {
      fc.assert(
        fc.property(hostileTaskFile, ({ document, field }) => {
          // A folder per case, the working directory too: whatever the run leaves shows up in it.
          const folder = mkdtempSync(join(root, "case-"));
          const file = join(folder, "tasks.json");
          writeFileSync(file, JSON.stringify(document));
          const run = cli(["run", file, "--db", join(folder, "journal.db"), "--quiet"], {}, folder);
          expect(run.status).toBe(2);
          expect(run.stdout).toBe("");
          expect(run.stderr).toMatch(new RegExp(`^error: ${escape(field)}: [^\\n]*\\n$`));
          expect(readdirSync(folder)).toEqual(["tasks.json"]);
        }),
        { numRuns: RUNS, ...fuzzSeed() },
      );
    },
    RUNS * 5_000,
  );
});
