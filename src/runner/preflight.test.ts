import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeTaskFile } from "../wire/task-file.js";
import { preflight, programProblem, stepProblem } from "./preflight.js";

/** A directory with a PATH of its own: `bin/` holds `claude` and `pytest`, executable. */
function sandbox() {
  const dir = mkdtempSync(join(tmpdir(), "loopgate-preflight-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  for (const name of ["claude", "pytest"]) {
    writeFileSync(join(bin, name), "#!/bin/sh\n");
    chmodSync(join(bin, name), 0o755);
  }
  writeFileSync(join(dir, "agent.sh"), "#!/bin/sh\n");
  mkdirSync(join(dir, "app"));
  return { dir, env: { PATH: bin } };
}

describe("programProblem", () => {
  const { dir, env } = sandbox();

  it("finds a program on PATH, and suggests the closest one for a typo", () => {
    expect(programProblem("claude", dir, env)).toBeUndefined();
    expect(programProblem("claud", dir, env)).toBe(
      'program "claud" not found on PATH (did you mean "claude"?)',
    );
    expect(programProblem("pytst", dir, env)).toBe(
      'program "pytst" not found on PATH (did you mean "pytest"?)',
    );
    expect(programProblem("make", dir, env)).toBe('program "make" not found on PATH');
  });

  it("checks a path from the step's directory: there, a file, executable", () => {
    expect(programProblem("./nope.sh", dir, env)).toBe(
      `program "./nope.sh" does not exist (${join(dir, "nope.sh")})`,
    );
    expect(programProblem("./app", dir, env)).toMatch(/^program "\.\/app" is not a file/);
    expect(programProblem("./agent.sh", dir, env)).toBe(
      `program "./agent.sh" is not executable (${join(dir, "agent.sh")}): chmod +x it, or run it through its interpreter, e.g. [sh, ./agent.sh]`,
    );
  });
});

describe("stepProblem", () => {
  const { dir, env } = sandbox();

  it("names the field: cwd, the program of argv, or the program a shell line starts with", () => {
    expect(stepProblem({ command: ["claude"], cwd: "app" }, dir, env)).toBeUndefined();
    expect(stepProblem({ command: ["claude"], cwd: "ap" }, dir, env)).toEqual({
      field: "cwd",
      message: `directory "ap" does not exist (${join(dir, "ap")})`,
    });
    expect(stepProblem({ command: ["claud", "-p"] }, dir, env)?.field).toBe("command[0]");
    expect(stepProblem({ command: "pytst -q tests" }, dir, env)).toEqual({
      field: "command",
      message: 'program "pytst" not found on PATH (did you mean "pytest"?)',
    });
  });

  it("leaves the shell its own: builtins, assignments, expansions", () => {
    for (const line of ["cd app && make", "FOO=1 make", "$AGENT run", "exit 0", "test -f x"]) {
      expect(stepProblem({ command: line }, dir, env)).toBeUndefined();
    }
  });

  it("looks on the PATH the step's own env gives", () => {
    expect(stepProblem({ command: ["claude"], env: { PATH: "/nowhere" } }, dir, env)?.message).toBe(
      'program "claude" not found on PATH',
    );
  });
});

describe("preflight", () => {
  const { dir, env } = sandbox();
  const file = (document: unknown) => decodeTaskFile(document);

  it("names the first step that cannot start by its task file field", () => {
    const broken = file({
      steps: { generate: ["claude"], test: ["pytest"] },
      tasks: [
        { id: "a", prompt: "p" },
        { id: "b", prompt: "p", steps: { test: { command: ["pytst"] } } },
      ],
    });
    expect(() => preflight(broken, dir, undefined, env)).toThrow(
      'tasks[1].steps.test.command[0]: program "pytst" not found on PATH (did you mean "pytest"?)',
    );
    // Only the tasks asked about are checked.
    expect(() => preflight(broken, dir, new Set(["a"]), env)).not.toThrow();
  });

  it("skips a file step every task replaces", () => {
    const replaced = file({
      steps: { generate: ["nothing-here"] },
      tasks: [{ id: "a", prompt: "p", steps: { generate: ["claude"] } }],
    });
    expect(() => preflight(replaced, dir, undefined, env)).not.toThrow();
  });
});
