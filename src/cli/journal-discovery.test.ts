import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "../runner/test-support/built-cli.js";
import { fixtureProject } from "../runner/test-support/fixture-project.js";

// Issue 10 item 8 through the built CLI: the journal is found as git finds its repository, hints
// repeat the --db that reaches it, reading commands create nothing, and nothing strays.

beforeAll(requireBuild);

/** A directory of its own, far from any journal. */
const elsewhere = () => mkdtempSync(join(tmpdir(), "loopgate-elsewhere-"));

describe("finding the journal (built CLI)", () => {
  it("walks up from the current directory, and .loopgate/ ignores itself", () => {
    const fixture = fixtureProject({ passFrom: 1 });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(0);
    expect(readFileSync(join(fixture.dir, ".loopgate", ".gitignore"), "utf8")).toBe("*\n");
    const deep = join(fixture.dir, "src", "deep");
    mkdirSync(deep, { recursive: true });
    const status = cli(["status"], {}, deep);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/^1 .* finished .*task-1:proceeded/m);
    for (const args of [
      ["history", "task-1"],
      ["explain", "task-1"],
      ["export", "--jsonl"],
    ]) {
      expect(cli(args, {}, deep).status).toBe(0);
    }
    expect(existsSync(join(deep, ".loopgate"))).toBe(false);
  });

  it("commands but run, with no journal above them, say so once and create nothing", () => {
    const dir = elsewhere();
    for (const args of [
      ["status"],
      ["history"],
      ["explain", "t"],
      ["export", "--jsonl"],
      ["logs", "t"],
      ["resume"],
      ["answer", "t", "--abort"],
      ["cancel"],
    ]) {
      const result = cli(args, {}, dir);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(
        /^error: no journal found: no \.loopgate\/journal\.db in .* or any directory above it \(give --db PATH or set LOOPGATE_DB[^\n]*\n$/,
      );
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("run also looks above its task file, and then its hints name the journal", () => {
    const fixture = fixtureProject({ passFrom: 9 });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(3);
    const other = fixture.write(
      "second.yaml",
      stringify({
        steps: { generate: { command: "true" }, test: { command: "false" } },
        iteration_control: { max_iterations: 1 },
        tasks: [{ id: "other", prompt: "p" }],
      }),
    );
    const away = elsewhere();
    const run = cli(["run", other], {}, away);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain(`loopgate resume --db ${fixture.db}`);
    expect(run.stderr).toContain(`--abort --db ${fixture.db}`);
    expect(readdirSync(away)).toEqual([]);
    // The hint works as printed, from where it was printed.
    const answer = cli(["answer", "other", "--abort", "--db", fixture.db], {}, away);
    expect(answer.stdout).toContain(`next: loopgate resume --db ${fixture.db}`);
  });

  it("a relative --db is repeated as given and leaves no folder beside it", () => {
    const fixture = fixtureProject({ passFrom: 9 });
    const run = cli(["run", fixture.taskFile, "--db", "rep2.db"], {}, fixture.dir);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("loopgate resume --db rep2.db\n");
    expect(run.stderr).toContain("--abort --db rep2.db\n");
    const status = cli(["status", "--db", "rep2.db"], {}, fixture.dir);
    expect(status.stdout).toContain("--abort --db rep2.db\n");
    const answer = cli(["answer", "task-1", "--abort", "--db", "rep2.db"], {}, fixture.dir);
    expect(answer.stdout).toContain("next: loopgate resume --db rep2.db\n");
    const folders = readdirSync(fixture.dir, { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    expect(folders).toEqual([]);
  });

  it("LOOPGATE_DB wins over a journal found by walking up", () => {
    const fixture = fixtureProject({ passFrom: 1 });
    expect(cli(["run", fixture.taskFile, "--quiet"], {}, fixture.dir).status).toBe(0);
    const db = join(elsewhere(), "env.db");
    const status = cli(["status"], { LOOPGATE_DB: db }, fixture.dir);
    expect(status.status).toBe(2);
    expect(status.stderr).toContain(`no journal at ${db}`);
  });
});
