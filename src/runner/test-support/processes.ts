import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { readStat } from "../proc-table.js";

/** Whether a process runs (a zombie, killed and waiting to be reaped, does not). */
export function isAlive(pid: number): boolean {
  return readStat(pid)?.alive === true;
}

/**
 * The processes of `pids` still running, each with its parent, session and command line: what a
 * failed "all gone" check shows, so a rare leftover can be told from a reused pid.
 */
export function stillAlive(pids: readonly number[]): string {
  const alive = pids.flatMap((pid) => {
    const stat = readStat(pid);
    if (stat?.alive !== true) return [];
    let command = "";
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      // Gone since its stat was read.
    }
    return [`${pid} (parent ${stat.ppid}, session ${stat.session}: ${command})`];
  });
  return alive.length === 0 ? "none" : alive.join(", ");
}

/** Waits until a condition holds, up to `ms` (generous: the machine may be busy); returns it. */
export async function eventually(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) return false;
    await sleep(25);
  }
  return true;
}

/**
 * Waits until process `pid` runs `command` (its `/proc/<pid>/comm`): read before its execs are
 * done, a process's environment may not yet be the one it was started with.
 */
export async function runningAs(pid: number, command: string): Promise<boolean> {
  return eventually(() => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === command;
    } catch {
      return false;
    }
  });
}

/** The pid a step wrote to `file`, once it is there. */
export async function pidFrom(file: string): Promise<number> {
  if (!(await eventually(() => existsSync(file) && readFileSync(file, "utf8").endsWith("\n")))) {
    throw new Error(`no pid in ${file}`);
  }
  return Number(readFileSync(file, "utf8"));
}

/** Kills what a failed test left running, so one failure does not leave sleepers behind. */
export function cleanUp(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
}
