import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand } from "./run-command.js";

const dir = mkdtempSync(join(tmpdir(), "loopgate-run-command-"));
const base = {
  cwd: dir,
  env: { PATH: process.env.PATH ?? "" },
  timeoutMs: 10_000,
  outputLimit: 4096,
};

describe("runCommand", () => {
  it("runs an argv array without a shell: metacharacters stay text", async () => {
    const result = await runCommand({
      ...base,
      command: ["echo", "$(touch pwned)", "`id`", "'\""],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("$(touch pwned) `id` '\"\n");
    expect(existsSync(join(dir, "pwned"))).toBe(false);
  });

  it("runs a shell string with sh -c, in cwd, with env, and reports the exit code", async () => {
    const result = await runCommand({
      ...base,
      command: 'echo "$GREETING" > out.txt; echo err >&2; exit 3',
      env: { ...base.env, GREETING: "hi" },
    });
    expect(result).toMatchObject({ exitCode: 3, timedOut: false, stdout: "", output: "err\n" });
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("hi\n");
  });

  it("kills the whole process group on timeout", async () => {
    const marker = join(dir, "survivor");
    const started = performance.now();
    const result = await runCommand({
      ...base,
      timeoutMs: 300,
      // The grandchild would write the marker after 2 s if it survived the group kill.
      command: `(sleep 2; touch ${marker}) & sleep 30`,
    });
    expect(result.timedOut).toBe(true);
    expect(result.output).toContain("timed out after 300 ms");
    expect(performance.now() - started).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(existsSync(marker)).toBe(false);
  });

  it("bounds the output of a step that prints hundreds of megabytes", async () => {
    const result = await runCommand({
      ...base,
      command: "echo FIRST; head -c 300000000 /dev/zero | tr '\\0' x; echo; echo LAST",
    });
    expect(result.exitCode).toBe(0);
    expect(result.output.startsWith("FIRST")).toBe(true);
    expect(result.output.trimEnd().endsWith("LAST")).toBe(true);
    expect(result.output.length).toBeLessThan(5000);
  });

  it("reports a program that cannot start", async () => {
    const result = await runCommand({ ...base, command: ["/nonexistent/agent"] });
    expect(result.exitCode).toBeNull();
    expect(result.output).toContain("cannot run /nonexistent/agent");
  });
});
