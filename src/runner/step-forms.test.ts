import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, requireBuild } from "./test-support/built-cli.js";

// Steps written the short way, through the built CLI, as a user writes them.

beforeAll(requireBuild);

/** A project holding only `loopgate.yaml` with this text. */
function project(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-forms-"));
  const taskFile = join(dir, "loopgate.yaml");
  writeFileSync(taskFile, yaml);
  return { dir, taskFile, db: join(dir, "journal.db") };
}

describe("steps written naturally (built CLI)", () => {
  it("runs steps given as their command alone, with a number in argv", () => {
    const { taskFile, db } = project(
      [
        "steps:",
        "  generate: [sleep, 0.1]",
        '  test: test -n "$LOOPGATE_TASK_ID"',
        '  review: [sh, -c, \'echo {"status": "approve"}\']',
        "tasks: [{id: t1, prompt: p}]",
      ].join("\n"),
    );
    const run = cli(["run", taskFile, "--db", db, "--json"]);
    expect(run.stderr).not.toContain("error");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).tasks[0]).toMatchObject({
      outcome: "proceeded",
      iterations: 1,
    });
  });

  it("refuses a boolean in argv with why, and suggests command for cmd, before anything runs", () => {
    const boolean = project("steps:\n  generate: [true]\ntasks: [{id: t1, prompt: p}]\n");
    const refused = cli(["run", boolean.taskFile, "--db", boolean.db]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `error: steps.generate[0]: expected a string, not a boolean: YAML reads unquoted true and false as booleans; quote it ("true") to pass the word, got true (a boolean)\n`,
    );
    const cmd = project("steps:\n  generate: {cmd: [claude, -p]}\ntasks: [{id: t1, prompt: p}]\n");
    const suggested = cli(["run", cmd.taskFile, "--db", cmd.db]);
    expect(suggested.status).toBe(2);
    expect(suggested.stderr).toContain(
      'steps.generate: unknown key "cmd" (did you mean "command"?)',
    );
  });
});
