import { spawn, type ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import type { Readable } from "node:stream";
import { BoundedOutput } from "./bounded-output.js";
import { STEP_TOKEN_VARIABLE, StepProcesses, type RunningStep } from "./step-processes.js";

/** What to run: an argv array run without a shell, or a shell string the user wrote. */
export interface CommandSpec {
  readonly command: readonly string[] | string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly outputLimit: number;
  /** A file the command reads as its standard input (an agent's message); none when absent. */
  readonly stdinFile?: string;
  /** Called once the process is running: its pid is also its session and process group id. */
  readonly onSpawn?: (processes: RunningStep) => void;
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
  /** The signal that ended the process, if one did. */
  readonly signal?: NodeJS.Signals;
  /** Why the program could not start (spawn's error), when it could not. */
  readonly notStarted?: string;
}

/** Grace a timed-out step gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/**
 * How long output is still read once the step's process exited and what it left behind was
 * killed. The pipes then close at once, unless a process loopgate could not find holds them.
 */
const DRAIN_GRACE_MS = 1_000;
/** How long what was killed at the step's exit gets to close its pipes before holders are sought. */
const HOLDERS_CHECK_MS = 100;
/**
 * When a running step's descendants are noted, while their ancestry still shows: soon after it
 * starts (a daemon's parent often exits at once), then less often, at most this far apart.
 */
const FIRST_SNAPSHOT_MS = 25;
const SNAPSHOT_MS = 500;

/**
 * Runs a step's command in its own session and process group, so a timeout (or the step's end)
 * takes its children with it, those that left with `setsid` included (see StepProcesses).
 * Feedback never reaches a command line: steps read files named in `env`.
 */
export function runCommand(spec: CommandSpec): Promise<CommandResult> {
  const { timeoutMs, outputLimit, onSpawn } = spec;
  const [program, args] =
    typeof spec.command === "string"
      ? ["/bin/sh", ["-c", spec.command]]
      : [spec.command[0] ?? "", spec.command.slice(1)];
  const started = performance.now();
  const stdout = new BoundedOutput(outputLimit);
  const output = new BoundedOutput(outputLimit);
  const token = randomUUID();
  const child = startChild(program, args, spec, token);
  // Nothing below keeps `spec`: its environment, a copy of the runner's per step, is garbage once
  // the child runs, instead of living as long as the step and being promoted to the old heap.
  return new Promise((resolve) => {
    // At once: a quick step may be gone in a millisecond, and with it what tells its output.
    const processes = child.pid === undefined ? undefined : new StepProcesses(child.pid, token);
    let timedOut = false;
    let settled = false;
    const finish = (
      exitCode: number | null,
      note = "",
      end: Pick<CommandResult, "signal" | "notStarted"> = {},
    ) => {
      if (settled) return;
      settled = true;
      if (note !== "") output.write(Buffer.from(note));
      resolve({
        exitCode,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.text(),
        output: output.text(),
        ...end,
      });
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.write(chunk);
      output.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => output.write(chunk));
    child.on("error", (error) =>
      finish(
        null,
        `[loopgate] cannot run ${program}: ${error.message}\n`,
        processes === undefined ? { notStarted: error.message } : {},
      ),
    );
    // No pid: the program could not start, and the error event says why.
    if (processes === undefined) return;
    onSpawn?.(processes);
    let snapshots: NodeJS.Timeout | undefined;
    const snapshotIn = (ms: number) => {
      snapshots = setTimeout(() => {
        processes.snapshot();
        snapshotIn(Math.min(ms * 2, SNAPSHOT_MS));
      }, ms);
    };
    snapshotIn(FIRST_SNAPSHOT_MS);
    let kill: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => {
      timedOut = true;
      processes.signal("SIGTERM");
      kill = setTimeout(() => processes.signal("SIGKILL"), KILL_GRACE_MS);
    }, timeoutMs);
    let holders: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let heldOpen = false;
    child.on("exit", () => {
      clearTimeout(snapshots);
      clearTimeout(deadline);
      clearTimeout(kill);
      // What the step left behind would outlive it and hold its pipes open.
      processes.signal("SIGKILL");
      holders = setTimeout(() => processes.killHolders(), HOLDERS_CHECK_MS);
      drain = setTimeout(() => {
        heldOpen = true;
        child.stdout.destroy();
        child.stderr.destroy();
      }, DRAIN_GRACE_MS);
    });
    child.on("close", (code, signal) => {
      clearTimeout(holders);
      clearTimeout(drain);
      // Anything forked while the leftovers were being killed.
      processes.end();
      const notes = [
        timedOut ? `[loopgate] step timed out after ${timeoutMs} ms` : "",
        heldOpen
          ? `[loopgate] stopped reading ${DRAIN_GRACE_MS} ms after the step exited: a process it left behind still held its output`
          : "",
      ].filter((note) => note !== "");
      finish(
        code,
        notes.length === 0 ? "" : `\n${notes.join("\n")}\n`,
        signal === null ? {} : { signal },
      );
    });
  });
}

/** Spawns a step's program in its own session, its output piped, its input the stdin file or none. */
function startChild(
  program: string,
  args: readonly string[],
  spec: CommandSpec,
  token: string,
): ChildProcessByStdio<null, Readable, Readable> {
  const stdin = spec.stdinFile === undefined ? "ignore" : openSync(spec.stdinFile, "r");
  const child = spawn(program, args, {
    cwd: spec.cwd,
    env: { ...spec.env, [STEP_TOKEN_VARIABLE]: token },
    detached: true,
    stdio: [stdin, "pipe", "pipe"],
    // A descriptor for stdin leaves Node's typings unsure of the pipes; both are pipes.
  }) as ChildProcessByStdio<null, Readable, Readable>;
  // The child has its own copy of the descriptor once spawned (or never will).
  if (typeof stdin === "number") closeSync(stdin);
  return child;
}
