import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { STEP_LAUNCHER_FLAG } from "../step-launcher.js";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../../bin/loopgate.js", import.meta.url));
const BUNDLE = fileURLToPath(new URL("../../../dist/cli.cjs", import.meta.url));

/** The arguments to `node` of the built CLI's step launcher (see `StepLauncher`). */
export function launcherArgs(): string[] {
  return [BIN, STEP_LAUNCHER_FLAG];
}

/** Fails early and clearly when the CLI was not built: these tests drive `bin/loopgate.js`. */
export function requireBuild(): void {
  if (!existsSync(BUNDLE)) throw new Error("build the CLI first: npm run build");
}

/** Runs the built CLI to its end, with `input` on its standard input. */
export function cli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  cwd = ROOT,
  input = "",
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    encoding: "utf8",
    input,
    timeout: 120_000,
  });
}

/**
 * Starts the built CLI without waiting, for tests that kill it; stderr piped if asked; with
 * `group`, as the leader of a process group of its own, as a terminal's foreground job is.
 */
export function startCli(
  args: readonly string[],
  cwd = ROOT,
  stderr: "ignore" | "pipe" = "ignore",
  env: NodeJS.ProcessEnv = {},
  group = false,
) {
  return spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", stderr],
    detached: group,
  });
}

/**
 * Runs the built CLI to its end without blocking this process, for tests that serve it
 * something meanwhile (a loopback HTTP server).
 */
export function cliAsync(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  cwd = ROOT,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
