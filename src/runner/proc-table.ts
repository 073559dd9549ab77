import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from "node:fs";
import { withoutStacks } from "./without-stacks.js";

/** A process as Linux's `/proc/PID/stat` tells it: the fields that say whose it is. */
export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly session: number;
  /** When it was forked, in clock ticks since boot (field 22): with the pid, who it is. */
  readonly startTime: number;
  /** False for a zombie or a dead process: exited, only waiting to be reaped. */
  readonly alive: boolean;
}

// A stat line is a few hundred bytes: the command name is at most 64 bytes, the rest numbers.
const smallFileBuffer = Buffer.alloc(2048);

/**
 * Reads a small `/proc` file with one open and one read; undefined when it is not there. This
 * runs for several processes at every step's end: `readFileSync` stats the file first and
 * costs several times as much.
 */
function readSmall(file: string): string | undefined {
  return withoutStacks(() => {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      return undefined;
    }
    try {
      const length = readSync(fd, smallFileBuffer, 0, smallFileBuffer.length, 0);
      return smallFileBuffer.toString("latin1", 0, length);
    } catch {
      // ESRCH: the process exited between the open and the read.
      return undefined;
    } finally {
      closeSync(fd);
    }
  });
}

/** Reads one process's stat line; undefined when it is gone (or there is no `/proc`). */
export function readStat(pid: number): ProcStat | undefined {
  const line = readSmall(`/proc/${pid}/stat`);
  return line === undefined ? undefined : parseStat(line);
}

/**
 * Parses `pid (comm) state ppid pgrp session … starttime …`. The command name may hold spaces
 * and parentheses, so fields are counted from the last `)`.
 */
export function parseStat(line: string): ProcStat | undefined {
  const close = line.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number.parseInt(line, 10);
  const fields = line.slice(close + 2).split(" ");
  const [state, ppid, session, startTime] = [0, 1, 3, 19].map((index) => fields[index]);
  if (!Number.isInteger(pid) || startTime === undefined) return undefined;
  return {
    pid,
    ppid: Number(ppid),
    session: Number(session),
    startTime: Number(startTime),
    alive: state !== "Z" && state !== "X",
  };
}

/** Listing `/proc` costs more than trying this many pids that may not exist. */
const PROBE_LIMIT = 32;

/**
 * The processes whose pids are `first` to `last` (wrapping at `pidMax` when `last` < `first`),
 * or every process when no range is given; empty where there is no `/proc`.
 */
export function processTable(range?: {
  readonly first: number;
  readonly last: number;
  readonly pidMax: number;
}): ProcStat[] {
  let pids: number[];
  const size =
    range === undefined ? Infinity : (range.last - range.first + range.pidMax) % range.pidMax;
  if (range !== undefined && size < PROBE_LIMIT) {
    pids = Array.from({ length: size + 1 }, (_, index) => (range.first + index) % range.pidMax);
  } else {
    try {
      pids = readdirSync("/proc").flatMap((name) => {
        const first = name.charCodeAt(0);
        return first < 48 || first > 57 ? [] : [Number(name)];
      });
    } catch {
      return [];
    }
    if (range !== undefined) {
      const { first, last } = range;
      pids = pids.filter((pid) =>
        last >= first ? pid >= first && pid <= last : pid >= first || pid <= last,
      );
    }
  }
  return pids.flatMap((pid) => readStat(pid) ?? []);
}

/**
 * Whether a process's environment, as it was when its program started, holds `entry`
 * (`NAME=value`) exactly. False when it cannot be read: gone, or another user's.
 */
export function environHas(pid: number, entry: string): boolean {
  let environ: string;
  try {
    environ = withoutStacks(() => readFileSync(`/proc/${pid}/environ`, "latin1"));
  } catch {
    return false;
  }
  return `\0${environ}`.includes(`\0${entry}\0`);
}

/** What a process's descriptor `fd` is open on (`pipe:[4242]`, a path); undefined if unreadable. */
export function openFile(pid: number, fd: number | string): string | undefined {
  try {
    return withoutStacks(() => readlinkSync(`/proc/${pid}/fd/${fd}`));
  } catch {
    return undefined;
  }
}

/** What each of a process's descriptors is open on; empty when they cannot be read. */
export function openFiles(pid: number): string[] {
  let fds: string[];
  try {
    fds = withoutStacks(() => readdirSync(`/proc/${pid}/fd`));
  } catch {
    return [];
  }
  return fds.flatMap((fd) => openFile(pid, fd) ?? []);
}

/** Reads a number from a `/proc` file; undefined when there is none. */
function readNumber(file: string): number | undefined {
  const value = Number.parseInt(readSmall(file) ?? "", 10);
  return Number.isInteger(value) ? value : undefined;
}

/** The pid allocated last: pids are handed out in increasing order, wrapping at `pidMax`. */
export function lastPid(): number | undefined {
  return readNumber("/proc/sys/kernel/ns_last_pid");
}

/** What does not change while this process lives, read once. */
let fixed:
  | {
      readonly pidMax: number | undefined;
      readonly bootId: string | undefined;
      readonly session: number | undefined;
      readonly startTime: number | undefined;
    }
  | undefined;

/** Where pid allocation wraps, this boot's id, this process's session (it never leaves it) and start time. */
function host() {
  if (fixed === undefined) {
    const own = readStat(process.pid);
    fixed = {
      pidMax: readNumber("/proc/sys/kernel/pid_max"),
      bootId: readSmall("/proc/sys/kernel/random/boot_id")?.trim(),
      session: own?.session,
      startTime: own?.startTime,
    };
  }
  return fixed;
}

/** The session this process runs in. */
export function ownSession(): number | undefined {
  return host().session;
}

/** When this process was forked, in clock ticks since boot. */
export function ownStartTime(): number | undefined {
  return host().startTime;
}

/** One more than the largest pid: where pid allocation wraps. */
export function pidMax(): number | undefined {
  return host().pidMax;
}

/** This boot's id: a pid and start time name a process only within one boot. */
export function bootId(): string | undefined {
  return host().bootId;
}
