import { randomUUID } from "node:crypto";
import { bootId, ownStartTime, readStat } from "./proc-table.js";

/**
 * A new lease owner for this process: a random value, then (on Linux) this boot's id and this
 * process's start time. The owner is written with the pid in every lease row, by every loopgate,
 * so the mark always belongs to the row's pid: no schema change, and a row an older loopgate
 * wrote simply has none.
 */
export function newOwner(): string {
  const random = randomUUID();
  const boot = bootId();
  const startTime = ownStartTime();
  return boot === undefined || startTime === undefined ? random : `${random}/${boot}/${startTime}`;
}

/** The boot id and start time an owner carries; undefined for one without them. */
function markOf(
  owner: string,
): { readonly bootId: string; readonly startTime: number } | undefined {
  const [, boot, startTime, ...rest] = owner.split("/");
  if (boot === undefined || startTime === undefined || rest.length > 0) return undefined;
  if (boot === "" || !/^\d+$/.test(startTime)) return undefined;
  return { bootId: boot, startTime: Number(startTime) };
}

/**
 * Whether the process of this host at `pid` is provably not the owner's: the machine rebooted
 * since the owner wrote its mark, or the process at the pid started at another time (the pid was
 * handed out again). False when it cannot be told: an owner without a mark, no `/proc`, or
 * nothing at the pid (whether it runs is `alive`'s question).
 */
export function pidReused(pid: number, owner: string): boolean {
  const mark = markOf(owner);
  const boot = bootId();
  if (mark === undefined || boot === undefined) return false;
  if (mark.bootId !== boot) return true;
  const stat = readStat(pid);
  return stat !== undefined && stat.startTime !== mark.startTime;
}
