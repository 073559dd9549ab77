import { onJsonLines } from "./json-lines.js";
import { runCommand } from "./run-command.js";
import type { LauncherReply, LauncherRequest } from "./step-launcher.js";
import type { RunningStep } from "./step-processes.js";
import { keepHeapSmall } from "./small-heap.js";

/**
 * The step launcher's side of `StepLauncher`: runs each step asked on standard input with
 * `runCommand` and writes what happened to standard output, one JSON line each. Ctrl-C reaches
 * the launcher with the runner (the same process group): the runner decides what becomes of its
 * steps, so the launcher ignores SIGINT and SIGTERM, and exits when its input closes — the runner
 * ended, or died, leaving its steps as a dead runner's always were (`resume` kills them).
 */
export function serveSteps(): void {
  // A fork copies the page tables of what the launcher holds.
  keepHeapSmall();
  const running = new Map<number, RunningStep>();
  const reply = (message: LauncherReply) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const serve = (request: LauncherRequest) => {
    if (request.kind === "signal") {
      running.get(request.id)?.signal(request.signal);
      return;
    }
    const { id, spec } = request;
    void runCommand({
      ...spec,
      onSpawn: (processes) => {
        running.set(id, processes);
        reply({
          kind: "spawned",
          id,
          pid: processes.pid,
          ...(processes.identity === undefined ? {} : { identity: processes.identity }),
        });
      },
    }).then((result) => {
      running.delete(id);
      reply({ kind: "ended", id, result });
    });
  };
  process.on("SIGINT", () => undefined);
  process.on("SIGTERM", () => undefined);
  onJsonLines(process.stdin, serve);
  process.stdin.on("end", () => process.exit(0));
}
