import { spawn } from "node:child_process";
import { encodeDecision } from "../wire/decide-document.js";
import { decodeRewrite } from "./rewrite-document.js";
import type { Summarizer } from "./summarizer.js";

/** How much of a failing command's stderr its error quotes. */
const STDERR_EXCERPT = 200;

/**
 * A summarizer that runs a shell command: the deterministic escalation goes to its stdin as the
 * JSON `loopgate decide --json` prints, and its stdout must be one JSON rewrite document. A
 * non-zero exit, invalid JSON or an invalid document rejects; an abort kills the command and
 * everything it started.
 */
export function commandSummarizer(command: string): Summarizer {
  return (escalation, signal) =>
    new Promise((resolve, reject) => {
      // Its own process group, so an abort also kills what the shell started, not just the shell.
      const child = spawn(command, {
        shell: true,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
      const kill = (): void => {
        if (child.pid === undefined || child.exitCode !== null) return;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // The group may have exited between the check and the kill; nothing is left to stop.
        }
      };
      signal.addEventListener("abort", kill, { once: true });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => {
        signal.removeEventListener("abort", kill);
        if (code !== 0) {
          reject(
            new Error(
              `exited with ${code ?? "a signal"}: ${stderr.trim().slice(0, STDERR_EXCERPT)}`,
            ),
          );
          return;
        }
        try {
          resolve(decodeRewrite(JSON.parse(stdout)));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      // A command that exits without reading its input must not crash loopgate with EPIPE.
      child.stdin.on("error", () => undefined);
      child.stdin.end(JSON.stringify(encodeDecision(escalation)));
    });
}
