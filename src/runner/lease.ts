import { hostname } from "node:os";
import type { Journal } from "./journal.js";
import { newOwner, pidReused } from "./lease-owner.js";
import { killStepsOfDeadRunner } from "./step-processes.js";

/** A lease not renewed for this long is stale, whoever holds it (a runner on another host). */
export const LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = 5_000;
/**
 * How long after this process last wrote a lease of its own (took or renewed it) it is still
 * known to hold it without a transaction: well inside LEASE_TTL_MS, and its pid alive, so no
 * other runner can have found the lease stale and taken it over meanwhile.
 */
const KNOWN_HELD_MS = 2 * RENEW_EVERY_MS;

/** Who holds a lease. */
export interface LeaseHolder {
  readonly owner: string;
  readonly pid: number;
  readonly host: string;
  readonly heartbeatAt: number;
}

/** Whether a process of this host still runs (a zombie counts: its parent has not reaped it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a holder is known to be dead: it ran on this host and its pid is gone, or names
 * another process now (a holder whose owner carries no start time: only a gone pid tells).
 */
function diedHere(holder: LeaseHolder): boolean {
  return holder.host === hostname() && (!alive(holder.pid) || pidReused(holder.pid, holder.owner));
}

/** A lease whose holder died (same host, pid gone or reused) or went silent can be taken over. */
function stale(holder: LeaseHolder, now: number): boolean {
  return now - holder.heartbeatAt > LEASE_TTL_MS || diedHere(holder);
}

/**
 * Leases on scopes (`run:1`, `task:task-003`) in the journal's database, so two runners on one
 * database never run the same run or the same task at once. Taken in an IMMEDIATE transaction;
 * renewed while held; a dead holder's lease is taken over at once, and what its steps left
 * running on this host is killed first thing after (`killStepsOfDeadRunner`), once per dead
 * holder. Taking a lease this process wrote moments ago costs nothing (a runner takes its task's
 * lease before every step); one whose renewal found it gone is read again.
 */
export class Leases {
  /** This process's identity as a holder. */
  readonly owner = newOwner();
  /** Each lease held, with when this process last wrote it (`performance.now()`; -Infinity once a renewal found it taken). */
  private readonly held = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Dead holders whose steps were killed: each has every process looked at once. */
  private readonly swept = new Set<string>();

  // Prepared once: a runner takes a task's lease before every step.
  private readonly holderOf;
  private readonly upsert;
  private readonly heartbeat;
  private readonly remove;

  constructor(private readonly journal: Journal) {
    const db = journal.db;
    this.holderOf = db.prepare<[string], LeaseHolder>(
      "SELECT owner, pid, host, heartbeat_at AS heartbeatAt FROM leases WHERE scope = ?",
    );
    this.upsert = db.prepare<[string, string, number, string, number]>(
      `INSERT INTO leases (scope, owner, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(scope) DO UPDATE SET owner = excluded.owner, pid = excluded.pid,
         host = excluded.host, heartbeat_at = excluded.heartbeat_at`,
    );
    this.heartbeat = db.prepare<[number, string, string]>(
      "UPDATE leases SET heartbeat_at = ? WHERE scope = ? AND owner = ?",
    );
    this.remove = db.prepare<[string, string]>("DELETE FROM leases WHERE scope = ? AND owner = ?");
  }

  /** Takes the lease on `scope`, or returns who holds it. */
  acquire(scope: string): { ok: true } | { ok: false; holder: LeaseHolder } {
    const written = this.held.get(scope);
    if (written !== undefined && performance.now() - written < KNOWN_HELD_MS) return { ok: true };
    const db = this.journal.db;
    let dead: string | undefined;
    const take = db.transaction((): { ok: true } | { ok: false; holder: LeaseHolder } => {
      const now = Date.now();
      const holder = this.holderOf.get(scope);
      dead = undefined;
      if (holder !== undefined && holder.owner !== this.owner) {
        if (!stale(holder, now)) return { ok: false, holder };
        // Only a holder known dead: a silent one may still be running its steps.
        if (diedHere(holder)) dead = holder.owner;
      }
      this.upsert.run(scope, this.owner, process.pid, hostname(), now);
      return { ok: true };
    });
    const result = this.journal.write(() => take.immediate());
    if (result.ok) {
      this.held.set(scope, performance.now());
      this.timer ??= setInterval(() => this.renew(), RENEW_EVERY_MS).unref();
      // After the commit, so the scan of every process does not hold the database's write lock.
      if (dead !== undefined && !this.swept.has(dead)) {
        this.swept.add(dead);
        killStepsOfDeadRunner(dead);
      }
    }
    return result;
  }

  /**
   * Keeps every held lease fresh. A journal that changed under the runner is not written again:
   * the runner stops on it at its next write, and the leases go stale with its process.
   */
  private renew(): void {
    if (!this.journal.intact) return;
    try {
      this.journal.write(() => {
        for (const scope of this.held.keys()) {
          const renewed = this.heartbeat.run(Date.now(), scope, this.owner).changes === 1;
          this.held.set(scope, renewed ? performance.now() : -Infinity);
        }
      });
    } catch (error) {
      if (this.journal.intact) throw error;
    }
  }

  /** Gives a lease back. */
  release(scope: string): void {
    if (this.journal.intact) this.journal.write(() => this.remove.run(scope, this.owner));
    this.held.delete(scope);
  }

  /** Gives every lease back and stops renewing. */
  releaseAll(): void {
    for (const scope of [...this.held.keys()]) this.release(scope);
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
