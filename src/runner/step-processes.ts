import type { RunStep } from "../core/loop/loop-effect.js";
import {
  bootId,
  environHas,
  lastPid,
  openFile,
  openFiles,
  ownSession,
  pidMax,
  processTable,
  readStat,
  type ProcStat,
} from "./proc-table.js";
import { withoutStacks } from "./without-stacks.js";

/**
 * The variable every step's environment carries, a value of its own per step run: descendants
 * inherit it, and `/proc/PID/environ` shows it even after they left the step's session.
 */
export const STEP_TOKEN_VARIABLE = "LOOPGATE_STEP_TOKEN";

/**
 * The variable every step's environment carries naming the runner that started it (its lease
 * owner): what finds a dead runner's step that was spawned but never journaled as started.
 */
export const STEP_OWNER_VARIABLE = "LOOPGATE_STEP_OWNER";

/** What tells a step's processes from others; journaled with its pid so `resume` can find them. */
export interface StepIdentity {
  readonly pid: number;
  /** The step's fork time (clock ticks since boot): each of its processes started then or later. */
  readonly startTime: number;
  readonly bootId: string;
  readonly token: string;
}

/** What the runner holds of a running step: its pid, what proves it is the step, and its signal. */
export type RunningStep = Pick<StepProcesses, "pid" | "identity" | "signal">;

/** Where to look for a step's processes, and what is known of them already. */
interface Search {
  readonly startTime: number;
  /** The environment entry (`NAME=value`) every process of the search carries, if one is known. */
  readonly tag?: string | undefined;
  /** Sessions known to be the step's: every member of one is. */
  readonly sessions: readonly number[];
  /** Pids seen as the step's earlier, with their start times (a reused pid has another). */
  readonly known?: ReadonlyMap<number, number>;
  /**
   * Pids whose environment was read and lacked the tag, with their start times: a process's
   * environment is set when it starts a program, and no stranger starts one with the tag.
   */
  readonly strangers?: Map<number, number>;
}

/**
 * The live processes of a step in `table`: those carrying its tag, those in a session it or
 * its descendants made (a session is only ever entered by being forked in it), descendants of
 * any of these, and those seen as the step's before. Only processes started since the step
 * count, and never this runner or its own session.
 */
function stepMembers(table: readonly ProcStat[], search: Search): ProcStat[] {
  const own = ownSession();
  const candidates = table.filter(
    (entry) => entry.alive && entry.pid !== process.pid && entry.startTime >= search.startTime,
  );
  const sessions = new Set(search.sessions.filter((session) => session !== own));
  const found = new Map<number, ProcStat>();
  const claimed = (entry: ProcStat) =>
    sessions.has(entry.session) ||
    found.has(entry.ppid) ||
    search.known?.get(entry.pid) === entry.startTime;
  const add = (entry: ProcStat) => {
    found.set(entry.pid, entry);
    if (entry.session !== own) sessions.add(entry.session);
  };
  // The environment is read only of processes nothing else claims: it costs a read each.
  const tag = search.tag;
  const carries = (entry: ProcStat) => {
    if (tag === undefined || search.strangers?.get(entry.pid) === entry.startTime) return false;
    if (environHas(entry.pid, tag)) return true;
    search.strangers?.set(entry.pid, entry.startTime);
    return false;
  };
  for (const entry of candidates) if (claimed(entry) || carries(entry)) add(entry);
  // A member claims its children and its session's members, which may claim more in turn.
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of candidates) {
      if (!found.has(entry.pid) && claimed(entry)) {
        add(entry);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** The environment entry that carries a step's token. */
function tokenEntry(token: string): string {
  return `${STEP_TOKEN_VARIABLE}=${token}`;
}

/** Sends a signal to a process (`-pgid`: a group), which may be gone already. */
function send(target: number, signal: NodeJS.Signals): void {
  try {
    // Most often nothing is left: a step's group is signalled once its leader exited.
    withoutStacks(() => process.kill(target, signal));
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/**
 * A running step's processes: its process group, and on Linux every process of its session, of
 * sessions its descendants made with `setsid`, and every process carrying its token — found in
 * `/proc` when signalled, and between signals by `snapshot`, which keeps the pids of descendants
 * while their ancestry still leads back to the step.
 */
export class StepProcesses {
  /** Undefined without `/proc`: then only the process group is signalled. */
  readonly identity: StepIdentity | undefined;
  private readonly known = new Map<number, number>();
  private readonly strangers = new Map<number, number>();
  /**
   * What the step writes its output to, as `/proc` names it: Node's stdio pipes are socket
   * pairs (`socket:[4242]`), and the step's end is only ever shared by inheritance.
   */
  private readonly outputs: readonly string[];
  /** Pids allocated since the step, and the last one seen: every process of it is among them. */
  private allocated = 0;
  private lastPid: number;
  private readonly pidMax: number | undefined;
  private ended = false;
  /** Whether the last look found any process of the step (none before the first look). */
  private leftovers = true;

  constructor(
    readonly pid: number,
    token: string,
  ) {
    // The step was forked a moment ago and is not reaped before this returns: its stat is there.
    const stat = readStat(pid);
    const boot = bootId();
    this.identity =
      stat === undefined || boot === undefined
        ? undefined
        : { pid, startTime: stat.startTime, bootId: boot, token };
    // Node's spawn returns once the program was executed, so its stdout and stderr are set.
    this.outputs = [1, 2]
      .flatMap((fd) => openFile(pid, fd) ?? [])
      .filter((file) => file.startsWith("socket:") || file.startsWith("pipe:"));
    // Counted from the step's own pid, not read again: the few pids allocated since the fork
    // only make the count of allocations (when to read all of `/proc`) err on the safe side.
    this.lastPid = pid;
    this.pidMax = pidMax();
  }

  /**
   * The processes that may be the step's: those whose pid was allocated since it, as pids are
   * handed out in order — a few on a quiet machine, where reading all of `/proc` each time
   * would cost milliseconds per step. Everything once allocation may have come round again.
   */
  private candidates(): ProcStat[] {
    const first = this.pid;
    const last = lastPid();
    if (last === undefined || this.pidMax === undefined) {
      return processTable();
    }
    this.allocated += (last - this.lastPid + this.pidMax) % this.pidMax;
    this.lastPid = last;
    if (this.allocated >= this.pidMax / 2) return processTable();
    return processTable({ first, last, pidMax: this.pidMax });
  }

  /** The step's processes alive now; each is remembered. */
  private members(): ProcStat[] {
    if (this.identity === undefined) return [];
    const found = stepMembers(this.candidates(), {
      startTime: this.identity.startTime,
      tag: tokenEntry(this.identity.token),
      sessions: [this.pid],
      known: this.known,
      strangers: this.strangers,
    });
    for (const entry of found) this.known.set(entry.pid, entry.startTime);
    this.leftovers = found.length > 0;
    return found;
  }

  /** Notes who is the step's now: a process's ancestry is lost once its parent exits. */
  snapshot(): void {
    if (!this.ended) this.members();
  }

  /** Signals every process of the step; nothing once it ended (its pids may name others by then). */
  signal(signal: NodeJS.Signals): void {
    if (this.ended) return;
    send(-this.pid, signal);
    for (const entry of this.members()) send(entry.pid, signal);
  }

  /**
   * Kills every process started since the step that still holds its output — one that
   * cleared its environment and left before a snapshot saw it — with what is the holders'.
   */
  killHolders(): void {
    const identity = this.identity;
    if (this.ended || identity === undefined || this.outputs.length === 0) return;
    for (const entry of this.candidates()) {
      if (!entry.alive || entry.pid === process.pid || entry.startTime < identity.startTime)
        continue;
      if (openFiles(entry.pid).some((file) => this.outputs.includes(file))) {
        this.known.set(entry.pid, entry.startTime);
      }
    }
    this.signal("SIGKILL");
  }

  /**
   * Kills what is left of the step, for good: later signals do nothing. When the last look found
   * nothing, nothing of the step is left that could have started more since.
   */
  end(): void {
    if (this.leftovers) this.signal("SIGKILL");
    this.ended = true;
  }
}

/** What `resume` did about a step a dead runner had in flight. */
export type OrphanOutcome =
  | { readonly kind: "killed"; readonly pids: readonly number[] }
  /** Nothing of the step is left. */
  | { readonly kind: "gone" }
  /** The journaled pid names another process now (a reused pid), and nothing else is the step's. */
  | { readonly kind: "not-the-step" }
  /** The machine rebooted since: every process of the step died with it. */
  | { readonly kind: "other-boot" };

/** The step-started event's fields that name the step in its environment. */
type StartedStep = Pick<RunStep, "taskId" | "iteration" | "step">;

/**
 * Kills what is left of a step a dead runner started on this host, given the step-started
 * event's meta — but only what is provably the step's: the pid when its start time and boot id
 * are the journaled ones, and every process carrying the journaled token. A journal written
 * before those were recorded has the pid alone: it is killed only when its environment names
 * this very step (task, attempt, step), and leftovers whose leader already exited are not found.
 */
export function killOrphanedStep(
  meta: Readonly<Record<string, unknown>>,
  started: StartedStep,
): OrphanOutcome {
  const pid = meta.pid;
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return { kind: "gone" };
  const leader = readStat(pid);
  let search: Search;
  if (typeof meta.startTime === "number" && typeof meta.bootId === "string") {
    if (meta.bootId !== bootId()) return { kind: "other-boot" };
    search = {
      startTime: meta.startTime,
      tag: typeof meta.token === "string" ? tokenEntry(meta.token) : undefined,
      sessions: leader?.startTime === meta.startTime ? [pid] : [],
    };
  } else {
    if (leader === undefined) return { kind: "gone" };
    const names = [
      `LOOPGATE_TASK_ID=${started.taskId}`,
      `LOOPGATE_ITERATION=${started.iteration}`,
      `LOOPGATE_STEP=${started.step}`,
    ];
    if (!names.every((entry) => environHas(pid, entry))) return { kind: "not-the-step" };
    search = { startTime: leader.startTime, sessions: [pid] };
  }
  const found = stepMembers(processTable(), search);
  const verified = search.sessions.includes(pid);
  if (found.length === 0) {
    return { kind: leader !== undefined && !verified ? "not-the-step" : "gone" };
  }
  if (verified) send(-pid, "SIGKILL");
  for (const entry of found) send(entry.pid, "SIGKILL");
  return { kind: "killed", pids: found.map((entry) => entry.pid).sort((a, b) => a - b) };
}

/**
 * Kills every process a runner that died on this host left of its steps, found by the runner's
 * owner tag in `/proc/PID/environ` (with their sessions and descendants): a step spawned in the
 * moment before its start was journaled is found by nothing else. Reads every process's
 * environment, so it is for the takeover of a dead runner's lease, not for every step. Returns
 * the pids killed.
 */
export function killStepsOfDeadRunner(owner: string): number[] {
  const found = stepMembers(processTable(), {
    // The tag is the proof: the owner is a random value of the dead runner's own.
    startTime: 0,
    tag: `${STEP_OWNER_VARIABLE}=${owner}`,
    sessions: [],
  });
  const own = ownSession();
  // A step is its session's and group's leader: its group first, so a fork meanwhile dies too.
  for (const entry of found) {
    if (entry.session === entry.pid && entry.session !== own) send(-entry.pid, "SIGKILL");
  }
  for (const entry of found) send(entry.pid, "SIGKILL");
  return found.map((entry) => entry.pid).sort((a, b) => a - b);
}
