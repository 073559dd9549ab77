import { writeSync } from "node:fs";
import { main } from "./cli/main.js";
import { STEP_LAUNCHER_FLAG } from "./runner/step-launcher.js";
import { lingersAfterDbos } from "./runner/dbos/dbos-shutdown.js";

/** How long a process that shut DBOS down may take to end by itself before it is ended. */
const LINGER_MS = 200;

let stdoutStream = process.platform === "win32";

/**
 * Writes to file descriptor 1 directly: creating `process.stdout` loads Node's stream and net
 * modules, which costs more than a whole `loopgate decide`. Hands over to the stream for good
 * when the descriptor would block (a full non-blocking pipe) or fails, and on Windows, where the
 * console needs the stream.
 */
function writeStdout(text: string): void {
  if (!stdoutStream) {
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(1, bytes, written);
      return;
    } catch {
      stdoutStream = true;
      process.stdout.write(bytes.subarray(written));
      return;
    }
  }
  process.stdout.write(text);
}

// No top-level await: scripts/bundle-cli.mjs emits the CLI as CommonJS, which starts faster.
if (process.argv[2] === STEP_LAUNCHER_FLAG) {
  void import("./runner/serve-steps.js").then(({ serveSteps }) => serveSteps());
} else {
  void main(process.argv.slice(2), {
    stdout: writeStdout,
    stderr: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
    // Unref'd: it ends the process only while DBOS's leftover timers keep it alive.
    if (lingersAfterDbos()) setTimeout(() => process.exit(code), LINGER_MS).unref();
  });
}
