import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LoopgateError } from "../core/errors.js";
import { StepLauncher } from "./step-launcher.js";
import type { RunningStep } from "./step-processes.js";
import { launcherArgs, requireBuild } from "./test-support/built-cli.js";
import { eventually, isAlive, pidFrom } from "./test-support/processes.js";

// What the runner does with a step the launcher runs; run-command.test.ts runs every case of
// runCommand through the launcher as well.

requireBuild();
const dir = mkdtempSync(join(tmpdir(), "loopgate-step-launcher-"));
const base = {
  cwd: dir,
  env: { PATH: process.env.PATH ?? "" },
  timeoutMs: 30_000,
  outputLimit: 4096,
};
const launcher = new StepLauncher(launcherArgs());
afterAll(() => launcher.close());

describe("StepLauncher", () => {
  it("hands the runner the step's pid and identity, and its signals reach the step's group", async () => {
    const pidFile = join(dir, "child.pid");
    let step: RunningStep | undefined;
    const running = launcher.run({
      ...base,
      command: `sleep 30 & echo $! > ${pidFile}; wait`,
      onSpawn: (spawned) => (step = spawned),
    });
    const child = await pidFrom(pidFile);
    // The step can write its pid before the launcher's "spawned" line reaches the runner.
    expect(await eventually(() => step !== undefined)).toBe(true);
    expect(step?.identity).toMatchObject({ pid: step?.pid, token: expect.any(String) });
    step?.signal("SIGTERM");
    const result = await running;
    expect(result.signal).toBe("SIGTERM");
    expect(await eventually(() => !isAlive(child))).toBe(true);
    // Ended: its pid may name another process by now, and nothing is sent.
    step?.signal("SIGKILL");
  });

  it("runs steps at once, each answered as its own", async () => {
    const results = await Promise.all(
      [3, 1, 2].map((n) =>
        launcher.run({ ...base, command: `sleep 0.${n}; echo ${n}; exit ${n}` }),
      ),
    );
    expect(results.map((result) => [result.exitCode, result.stdout])).toEqual([
      [3, "3\n"],
      [1, "1\n"],
      [2, "2\n"],
    ]);
  });

  it("fails the steps of a launcher that died with STEP_LAUNCHER_DIED, and every later one", async () => {
    const dead = new StepLauncher(["-e", "process.exit(3)"]);
    const failed = (error: unknown) =>
      LoopgateError.is(error) && error.code === "STEP_LAUNCHER_DIED";
    await expect(dead.run({ ...base, command: "true" })).rejects.toSatisfy(failed);
    await expect(dead.run({ ...base, command: "true" })).rejects.toSatisfy(failed);
  });
});
