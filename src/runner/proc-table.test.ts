import { spawn } from "node:child_process";
import { once } from "node:events";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bootId,
  environHas,
  lastPid,
  parseStat,
  pidMax,
  processTable,
  readStat,
} from "./proc-table.js";

/** A stat line as Linux writes it, up to the start time (field 22) and a few fields beyond. */
function statLine(
  pid: number,
  comm: string,
  state: string,
  ppid: number,
  session: number,
  start: number,
) {
  const middle = Array.from({ length: 15 }, (_, index) => String(index)).join(" ");
  return `${pid} (${comm}) ${state} ${ppid} ${pid} ${session} ${middle} ${start} 8192 77 18446744073709551615\n`;
}

describe("parseStat", () => {
  it("reads the fields whatever the command name holds: spaces, parentheses, digits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4_194_304 }),
        fc.string({ maxLength: 64 }),
        fc.constantFrom("R", "S", "D", "Z", "X", "T"),
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 2 ** 52 }),
        (pid, comm, state, ppid, session, start) => {
          expect(parseStat(statLine(pid, comm, state, ppid, session, start))).toEqual({
            pid,
            ppid,
            session,
            startTime: start,
            alive: state !== "Z" && state !== "X",
          });
        },
      ),
    );
  });

  it("refuses a line that is not a stat line", () => {
    expect(parseStat("")).toBeUndefined();
    expect(parseStat("12 (sh) S 1")).toBeUndefined();
  });
});

describe("/proc", () => {
  it("reads this process and a child it started: parent, session, start time, environment", async () => {
    const child = spawn("sleep", ["30"], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, PROC_TABLE_TEST: "marked" },
    });
    try {
      const pid = child.pid!;
      const stat = readStat(pid)!;
      expect(stat).toMatchObject({ pid, ppid: process.pid, session: pid, alive: true });
      expect(stat.startTime).toBeGreaterThanOrEqual(readStat(process.pid)!.startTime);
      expect(environHas(pid, "PROC_TABLE_TEST=marked")).toBe(true);
      expect(environHas(pid, "PROC_TABLE_TEST=mark")).toBe(false);
      expect(processTable().map((entry) => entry.pid)).toContain(pid);
      // Pids are handed out in order: the child's is in the range from it to the last one.
      const max = pidMax()!;
      const pids = (first: number, last: number) =>
        processTable({ first, last, pidMax: max }).map((entry) => entry.pid);
      expect(pids(pid, lastPid()!)).toContain(pid);
      expect(pids(pid, pid)).toEqual([pid]);
      // A range that wraps round: every pid but the child's.
      const wrapped = pids(pid + 1, pid - 1);
      expect(wrapped).not.toContain(pid);
      expect(wrapped).toContain(process.pid);
      expect(bootId()).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
    expect(readStat(child.pid!)).toBeUndefined();
  });
});
