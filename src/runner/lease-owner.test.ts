import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { newOwner, pidReused } from "./lease-owner.js";
import { bootId, readStat } from "./proc-table.js";
import { cleanUp } from "./test-support/processes.js";

/** An owner as a runner forked at `startTime` in the boot `boot` would name itself. */
const ownerOf = (startTime: number, boot = bootId() ?? "") => `someone/${boot}/${startTime}`;

describe("pidReused", () => {
  it("tells the process an owner names from another live process at its pid", () => {
    const sleeper = spawn("sleep", ["60"], { stdio: "ignore" }).pid!;
    try {
      const stat = readStat(sleeper);
      expect(stat).toBeDefined();
      const owner = ownerOf(stat!.startTime);
      expect(pidReused(sleeper, owner)).toBe(false);
      // This process runs at another pid with another start time: as if it got the owner's pid.
      expect(readStat(process.pid)!.startTime).not.toBe(stat!.startTime);
      expect(pidReused(process.pid, owner)).toBe(true);
      expect(pidReused(sleeper, ownerOf(stat!.startTime + 1))).toBe(true);
    } finally {
      cleanUp([sleeper]);
    }
  });

  it("names this process in the owners it makes, a new random value each time", () => {
    const owner = newOwner();
    expect(owner).not.toBe(newOwner());
    expect(owner.split("/").slice(1)).toEqual([bootId(), String(readStat(process.pid)!.startTime)]);
    expect(pidReused(process.pid, owner)).toBe(false);
    const other = spawn("sleep", ["60"], { stdio: "ignore" }).pid!;
    try {
      expect(pidReused(other, owner)).toBe(true);
    } finally {
      cleanUp([other]);
    }
  });

  it("holds a process of another boot reused, and leaves the rest to whether the pid runs", () => {
    const start = readStat(process.pid)!.startTime;
    expect(pidReused(process.pid, ownerOf(start, "0f1e2d3c-0000-4000-8000-000000000000"))).toBe(
      true,
    );
    // Nothing at the pid: not a reuse, a death (`alive` says so).
    expect(pidReused(spawnSync("true").pid ?? 0, ownerOf(start))).toBe(false);
    // Owners without a mark (an older loopgate's, one without /proc) or with a garbled one.
    for (const owner of ["3b241101-e2bb-4255-8caf-4136c566a962", "x//1", "x/b/12s", "x/b/1/2"]) {
      expect(pidReused(process.pid, owner)).toBe(false);
    }
  });
});
