import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { LoopgateError } from "../../core/errors.js";
import { BoundedOutput } from "../bounded-output.js";

/** How a git command ended: its exit code and what it printed. */
export interface GitResult {
  readonly code: number;
  /** Standard output; redacted and bounded (head and tail) when the call asked for a limit. */
  readonly stdout: string;
  readonly stderr: string;
}

/** Settings every git call gets: no hooks, no signing prompt, no pager, no background gc. */
const QUIET_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "commit.gpgSign=false",
  "-c",
  "gc.auto=0",
  "-c",
  "core.quotePath=false",
];

/** What a git call may set: extra variables (the commit identity) and a bound on stdout. */
export interface GitOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Keep at most this many bytes of stdout, redacted (a diff); whole and as is when absent. */
  readonly limit?: number;
}

/** Git's words when a lock file (`index.lock`, a ref's `.lock`) is there already; group 1 names it. */
const LOCKED = /Unable to create '([^']+\.lock)': File exists/;

/** How often, and how far apart, a call that found a lock is tried again. */
const LOCK_TRIES = 5;
const LOCK_PAUSE_MS = 100;

/**
 * Runs `git -C dir ARGS` without a shell and waits for its end. A git that is not installed is
 * bad input (exit 2) saying how to get it; any other failure comes back as the exit code. A
 * lock file another git holds for a moment (an editor's `git status`) is waited out: the call
 * is tried again a few times, safely, since git refused it before it changed anything.
 */
export async function git(
  dir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<GitResult> {
  for (let tried = 1; ; tried += 1) {
    const result = await gitOnce(dir, args, options);
    if (result.code === 0 || tried === LOCK_TRIES || !LOCKED.test(result.stderr)) return result;
    await sleep(LOCK_PAUSE_MS);
  }
}

/** One try of `git`. */
function gitOnce(dir: string, args: readonly string[], options: GitOptions) {
  return new Promise<GitResult>((resolve, reject) => {
    const child = spawn("git", [...QUIET_CONFIG, "-C", dir, ...args], {
      env: {
        ...process.env,
        GIT_TERMINAL_PROMPT: "0",
        GIT_PAGER: "cat",
        LC_ALL: "C",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const bounded = options.limit === undefined ? null : new BoundedOutput(options.limit, "diff");
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) =>
      bounded === null ? out.push(chunk) : bounded.write(chunk),
    );
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new LoopgateError(
              "INVALID_INPUT",
              "workspace: git is not installed: install it (apt-get install git) or drop workspace from the task file",
            )
          : error,
      );
    });
    child.on("close", (code) =>
      resolve({
        code: code ?? 128,
        stdout: bounded === null ? Buffer.concat(out).toString("utf8") : bounded.text(),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/** Runs git and returns its trimmed stdout; a failure is an error naming the command and git's words. */
export async function gitOk(
  dir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<string> {
  const result = await git(dir, args, options);
  if (result.code !== 0) throw gitFailed(args, result);
  return options.limit === undefined ? result.stdout.trim() : result.stdout;
}

/**
 * A git command that failed, as an error: the first line git said names the problem. A lock
 * file still there after the tries is one left by a git killed mid-command (or one running
 * for long): the line names it and says how to go on. loopgate never removes it itself, since
 * git does not record who holds a lock and removing a live git's lock can break the index.
 */
export function gitFailed(args: readonly string[], result: GitResult): LoopgateError {
  const lock = LOCKED.exec(result.stderr)?.[1];
  if (lock !== undefined) {
    return new LoopgateError(
      "INVALID_INPUT",
      `workspace: git ${args[0] ?? ""} cannot run: ${lock} is there (a git process killed mid-command left it, or one is still running): when no git runs in this repository, remove it (rm '${lock}') and run loopgate again (loopgate resume)`,
    );
  }
  const said = result.stderr.trim().split("\n")[0] ?? "";
  return new LoopgateError(
    "INVALID_INPUT",
    `workspace: git ${args.join(" ")} failed (exit ${result.code})${said === "" ? "" : `: ${said}`}`,
  );
}
