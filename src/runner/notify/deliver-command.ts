import { runCommand } from "../run-command.js";
import type { Delivery } from "./deliver-webhook.js";

/** Output a notification command may print; only its last line is shown when it fails. */
const OUTPUT_LIMIT = 64 * 1024;

/** Names the notification's JSON file for a notification command. */
export const NOTIFICATION_FILE_VARIABLE = "LOOPGATE_NOTIFICATION_FILE";
/** `pause` or `finish`, for a command that serves both. */
export const NOTIFICATION_EVENT_VARIABLE = "LOOPGATE_NOTIFICATION_EVENT";

/**
 * Runs a notification command once, like a step (its own process group, killed at its timeout),
 * with the notification's file named in its environment; it is delivered when it exits 0.
 */
export async function deliverCommand(
  command: readonly string[] | string,
  notification: { readonly file: string; readonly event: string },
  options: { readonly cwd: string; readonly timeoutMs: number },
): Promise<Delivery> {
  const result = await runCommand({
    command,
    cwd: options.cwd,
    env: {
      ...process.env,
      [NOTIFICATION_FILE_VARIABLE]: notification.file,
      [NOTIFICATION_EVENT_VARIABLE]: notification.event,
    },
    timeoutMs: options.timeoutMs,
    outputLimit: OUTPUT_LIMIT,
  });
  if (result.exitCode === 0 && !result.timedOut) return { delivered: true, attempts: 1 };
  const said = result.output.trimEnd().split("\n").at(-1) ?? "";
  const end = result.timedOut
    ? `timed out after ${options.timeoutMs} ms`
    : result.exitCode === null
      ? "did not start or was killed"
      : `exited ${result.exitCode}`;
  return { delivered: false, attempts: 1, why: said === "" ? end : `${end}: ${said}` };
}
