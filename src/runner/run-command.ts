import { spawn } from "node:child_process";
import { BoundedOutput } from "./bounded-output.js";

/** What to run: an argv array run without a shell, or a shell string the user wrote. */
export interface CommandSpec {
  readonly command: readonly string[] | string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly outputLimit: number;
  /** Called once the process is running, with its pid (also its process group id). */
  readonly onSpawn?: (pid: number) => void;
}

/** How a command ended and what it printed (bounded). */
export interface CommandResult {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Standard output alone (a review step's JSON verdict). */
  readonly stdout: string;
  /** Standard output and error interleaved as they arrived. */
  readonly output: string;
}

/** Grace a timed-out step gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** Signals the whole process group; the group may already be gone. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/**
 * Runs a step's command in its own process group, so a timeout (or the step's end) takes its
 * children with it. Feedback never reaches a command line: steps read files named in `env`.
 */
export function runCommand(spec: CommandSpec): Promise<CommandResult> {
  const [program, args] =
    typeof spec.command === "string"
      ? ["/bin/sh", ["-c", spec.command]]
      : [spec.command[0] ?? "", spec.command.slice(1)];
  const started = performance.now();
  const stdout = new BoundedOutput(spec.outputLimit);
  const output = new BoundedOutput(spec.outputLimit);
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let timedOut = false;
    const pid = child.pid;
    const timer = setTimeout(() => {
      if (pid === undefined) return;
      timedOut = true;
      killGroup(pid, "SIGTERM");
      setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref();
    }, spec.timeoutMs);
    const finish = (exitCode: number | null, note = "") => {
      clearTimeout(timer);
      if (note !== "") output.write(Buffer.from(note));
      resolve({
        exitCode,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.text(),
        output: output.text(),
      });
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.write(chunk);
      output.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => output.write(chunk));
    child.on("error", (error) =>
      finish(null, `[loopgate] cannot run ${program}: ${error.message}\n`),
    );
    // No pid: the program could not start, and the error event says why.
    if (pid === undefined) return;
    spec.onSpawn?.(pid);
    child.on("exit", () => {
      // Background processes the step left behind would hold its pipes open and outlive it.
      killGroup(pid, "SIGKILL");
    });
    child.on("close", (code) =>
      finish(code, timedOut ? `\n[loopgate] step timed out after ${spec.timeoutMs} ms\n` : ""),
    );
  });
}
