import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasUnprintable } from "./core/printable.js";
import { cli, requireBuild } from "./runner/test-support/built-cli.js";

const CORPUS = fileURLToPath(new URL("../fixtures/hostile/", import.meta.url));

let scratch = "";
beforeAll(() => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), "loopgate-corpus-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh folder per case: a run's journal and step files land there, and only there. */
function caseFolder(): string {
  return mkdtempSync(join(scratch, "case-"));
}

/** How each folder of the corpus is read: the command line for one of its files. */
const READERS: Readonly<Record<string, (file: string, folder: string) => string[]>> = {
  verdict: (file) => ["verdict", file],
  decide: (file) => ["decide", file],
  run: (file, folder) => {
    const copy = join(folder, "tasks.yaml");
    cpSync(file, copy);
    return ["run", copy, "--db", join(folder, "journal.db"), "--quiet"];
  },
  answers: (file, folder) => {
    const tasks = join(folder, "tasks.yaml");
    writeFileSync(
      tasks,
      'steps:\n  generate: {command: [node, -e, "0"]}\ntasks:\n  - {id: t1, prompt: p}\n',
    );
    return ["run", tasks, "--answers", file, "--db", join(folder, "journal.db"), "--quiet"];
  },
  "feedback-test": (file) => ["feedback", file],
  "feedback-review": (file) => ["feedback", "--kind", "review", file],
};

const cases = Object.keys(READERS).flatMap((folder) =>
  readdirSync(join(CORPUS, folder)).map((name) => [`${folder}/${name}`, folder, name] as const),
);

describe("the hostile corpus (fixtures/hostile/) through the built CLI", () => {
  it("holds every kind of case", () => {
    for (const folder of Object.keys(READERS)) {
      expect(cases.filter(([, owner]) => owner === folder).length).toBeGreaterThan(3);
    }
  });

  it.each(cases)(
    "%s: read to the end, refused with one line or answered, printable either way",
    (_name, folder, name) => {
      const work = caseFolder();
      const reader = READERS[folder];
      if (reader === undefined) throw new Error(`no reader for ${folder}`);
      const run = cli(reader(join(CORPUS, folder, name), work), {}, work);
      expect(run.error, "the command did not finish in time").toBeUndefined();
      const refused = name.startsWith("refused-");
      expect(run.status, run.stderr.slice(0, 400)).toBe(refused ? 2 : run.status === 3 ? 3 : 0);
      if (run.status === 2) {
        expect(run.stdout).toBe("");
        expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
      }
      expect(hasUnprintable(run.stdout), run.stdout.slice(0, 400)).toBe(false);
      expect(hasUnprintable(run.stderr), run.stderr.slice(0, 400)).toBe(false);
      // A refused task or answers file leaves no journal behind.
      if (refused && (folder === "run" || folder === "answers")) {
        expect(existsSync(join(work, "journal.db"))).toBe(false);
      }
    },
    120_000,
  );
});
