import { spawn } from "node:child_process";
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

/**
 * Runs `git -C dir ARGS` without a shell and waits for its end. A git that is not installed is
 * bad input (exit 2) saying how to get it; any other failure comes back as the exit code.
 */
export function git(dir: string, args: readonly string[], options: GitOptions = {}) {
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

/** A git command that failed, as an error: the first line git said names the problem. */
export function gitFailed(args: readonly string[], result: GitResult): LoopgateError {
  const said = result.stderr.trim().split("\n")[0] ?? "";
  return new LoopgateError(
    "INVALID_INPUT",
    `workspace: git ${args.join(" ")} failed (exit ${result.code})${said === "" ? "" : `: ${said}`}`,
  );
}
