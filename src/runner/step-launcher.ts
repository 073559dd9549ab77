import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Socket } from "node:net";
import { LoopgateError } from "../core/errors.js";
import { onJsonLines } from "./json-lines.js";
import type { CommandResult, CommandSpec } from "./run-command.js";
import type { RunningStep, StepIdentity } from "./step-processes.js";

/** The argument that makes the CLI serve steps for the runner that started it (`serveSteps`). */
export const STEP_LAUNCHER_FLAG = "--step-launcher";

/** What the runner asks of its launcher, one JSON line each. */
export type LauncherRequest =
  | {
      readonly kind: "run";
      readonly id: number;
      readonly spec: Omit<CommandSpec, "onSpawn">;
    }
  | { readonly kind: "signal"; readonly id: number; readonly signal: NodeJS.Signals };

/** What the launcher tells the runner, one JSON line each, in the order it happened. */
export type LauncherReply =
  | {
      readonly kind: "spawned";
      readonly id: number;
      readonly pid: number;
      readonly identity?: StepIdentity;
    }
  | { readonly kind: "ended"; readonly id: number; readonly result: CommandResult };

/** The launcher process; its piped stdin and stdout are sockets, which can be unref'd. */
type Launcher = ChildProcessByStdio<Socket, Socket, null>;

/** A step asked of the launcher and not ended yet. */
interface Pending {
  /** Only this of the step's spec is kept: its environment is garbage once it was sent. */
  readonly onSpawn: CommandSpec["onSpawn"];
  readonly resolve: (result: CommandResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs the runner's steps through a small long-lived process of its own (the launcher, `node
 * ARGV…`), which spawns each step, keeps its output bounded and redacted, times it out and kills
 * what it leaves behind exactly as `runCommand` does — it runs `runCommand`. Why: Linux's fork
 * copies the page tables of the process that spawns, so a spawn from the runner, whose memory
 * grows with the run (journal, folded state, V8's heap), costs it more than one from a process
 * that holds nothing; and the runner's thread is what paces a run of many short steps. The
 * launcher starts with the first step and ends with the runner: it exits when its input closes.
 */
export class StepLauncher {
  private child: Launcher | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: LoopgateError | undefined;

  /** `argv`: the arguments to `node` of the launcher process (the CLI in its launcher mode). */
  constructor(readonly argv: readonly string[]) {}

  /**
   * Starts the launcher before the first step asks for it: its own start-up (Node and the CLI,
   * about as long as the runner's) then runs beside the runner's, not before the first step.
   */
  start(): void {
    if (this.failure === undefined) this.started();
  }

  /** Runs one step in the launcher; the same contract as `runCommand`. */
  run(spec: CommandSpec): Promise<CommandResult> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const child = this.started();
    const id = this.nextId;
    this.nextId += 1;
    // JSON leaves the onSpawn function out.
    const request: LauncherRequest = { kind: "run", id, spec };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.hold(child, true);
      this.pending.set(id, { onSpawn: spec.onSpawn, resolve, reject });
      child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** Ends the launcher once it has nothing to do; steps still running end with it. */
  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }

  /** The launcher process, started on the first step. */
  private started(): Launcher {
    if (this.child !== undefined) return this.child;
    const [program, ...args] = [process.execPath, ...this.argv];
    // No execArgv: the runner's own flags (a --require, a heap size) are not the launcher's.
    const child = spawn(program, args, { stdio: ["pipe", "pipe", "inherit"] }) as Launcher;
    onJsonLines<LauncherReply>(child.stdout, (reply) => this.received(reply));
    child.stdin.on("error", () => undefined); // It died: "exit" says so.
    child.on("error", (error) => this.died(`cannot start: ${error.message}`));
    child.on("exit", (code, signal) => {
      if (this.child === child || this.pending.size > 0) this.died(`exited (${signal ?? code})`);
    });
    this.child = child;
    this.hold(child, false);
    return child;
  }

  /** Whether the launcher keeps the runner's event loop alive: only while steps are out. */
  private hold(child: Launcher, held: boolean): void {
    for (const handle of [child, child.stdin, child.stdout]) {
      if (held) handle.ref();
      else handle.unref();
    }
  }

  private received(reply: LauncherReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    if (reply.kind === "spawned") {
      pending.onSpawn?.(this.running(reply.id, reply.pid, reply.identity));
      return;
    }
    this.pending.delete(reply.id);
    if (this.pending.size === 0 && this.child !== undefined) this.hold(this.child, false);
    pending.resolve(reply.result);
  }

  /** The runner's handle on a step the launcher runs: signals go to the launcher. */
  private running(id: number, pid: number, identity: StepIdentity | undefined): RunningStep {
    return {
      pid,
      identity,
      signal: (signal) => {
        if (!this.pending.has(id)) return;
        const request: LauncherRequest = { kind: "signal", id, signal };
        this.child?.stdin.write(`${JSON.stringify(request)}\n`);
      },
    };
  }

  /** The launcher is gone: every step out fails, and so does every later one. */
  private died(why: string): void {
    this.failure = new LoopgateError("STEP_LAUNCHER_DIED", `loopgate's step launcher ${why}`);
    this.child = undefined;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}
