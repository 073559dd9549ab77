import { spawn, spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it, vi } from "vitest";
import { Journal } from "./journal.js";
import { Leases, LEASE_TTL_MS } from "./lease.js";
import { bootId, readStat } from "./proc-table.js";
import { STEP_OWNER_VARIABLE } from "./step-processes.js";
import { fixtureProject } from "./test-support/fixture-project.js";
import { cleanUp, eventually, isAlive } from "./test-support/processes.js";

describe("Leases", () => {
  it("lets one holder at a time take a scope, and gives it back", () => {
    const { db } = fixtureProject();
    const first = new Leases(Journal.open(db));
    const second = new Leases(Journal.open(db));
    expect(first.acquire("run:1")).toEqual({ ok: true });
    expect(first.acquire("run:1")).toEqual({ ok: true });
    expect(second.acquire("run:1")).toMatchObject({ ok: false, holder: { pid: process.pid } });
    expect(second.acquire("task:a")).toEqual({ ok: true });
    first.releaseAll();
    expect(second.acquire("run:1")).toEqual({ ok: true });
    second.releaseAll();
  });

  it("takes over the lease of a holder that died", () => {
    const journal = Journal.open(fixtureProject().db);
    const dead = spawnSync("true").pid ?? 0;
    journal.db
      .prepare("INSERT INTO leases (scope, owner, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?)")
      .run("run:1", "ghost", dead, hostname(), Date.now());
    const leases = new Leases(journal);
    expect(leases.acquire("run:1")).toEqual({ ok: true });
    leases.releaseAll();
  });

  it("kills the steps a dead holder left once it takes its lease over, and leaves a silent live holder's alone", async () => {
    const journal = Journal.open(fixtureProject().db);
    const hold = journal.db.prepare(
      "INSERT INTO leases (scope, owner, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?)",
    );
    /** A sleeping process tagged as a step of the runner `owner`. */
    const stepOf = (owner: string) =>
      spawn("sleep", ["60"], {
        detached: true,
        stdio: "ignore",
        env: { PATH: process.env.PATH, [STEP_OWNER_VARIABLE]: owner },
      }).pid!;
    const orphan = stepOf("dead-runner");
    // A holder not heard from for longer than the TTL whose pid still runs: maybe stopped, not dead.
    const silent = stepOf("silent-runner");
    const silentRunner = stepOf("nobody");
    try {
      hold.run("run:1", "dead-runner", spawnSync("true").pid ?? 0, hostname(), Date.now());
      hold.run("task:a", "silent-runner", silentRunner, hostname(), Date.now() - 2 * LEASE_TTL_MS);
      const leases = new Leases(journal);
      expect(leases.acquire("run:1")).toEqual({ ok: true });
      expect(await eventually(() => !isAlive(orphan))).toBe(true);
      expect(leases.acquire("task:a")).toEqual({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(isAlive(silent)).toBe(true);
      leases.releaseAll();
    } finally {
      cleanUp([orphan, silent, silentRunner]);
    }
  });

  it("takes over at once the lease of a holder whose pid another process got, and kills its steps", async () => {
    const journal = Journal.open(fixtureProject().db);
    const hold = journal.db.prepare(
      "INSERT INTO leases (scope, owner, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?)",
    );
    const sleeper = (env: Record<string, string>) =>
      spawn("sleep", ["60"], {
        detached: true,
        stdio: "ignore",
        env: { PATH: process.env.PATH, ...env },
      }).pid!;
    // Runs at the dead holder's pid now: a live process that is not the holder.
    const stranger = sleeper({});
    const holder = sleeper({});
    const boot = bootId();
    const startOf = (pid: number) => readStat(pid)!.startTime;
    const dead = `dead-runner/${boot}/${startOf(stranger) + 1}`;
    const live = `live-runner/${boot}/${startOf(holder)}`;
    const orphan = sleeper({ [STEP_OWNER_VARIABLE]: dead });
    const step = sleeper({ [STEP_OWNER_VARIABLE]: live });
    try {
      hold.run("run:1", dead, stranger, hostname(), Date.now());
      hold.run("task:a", live, holder, hostname(), Date.now());
      const leases = new Leases(journal);
      expect(leases.acquire("run:1")).toEqual({ ok: true });
      expect(await eventually(() => !isAlive(orphan))).toBe(true);
      expect(isAlive(stranger)).toBe(true);
      // The same rule leaves a holder alone whose pid is still its own.
      expect(leases.acquire("task:a")).toMatchObject({ ok: false, holder: { owner: live } });
      expect(isAlive(step)).toBe(true);
      leases.releaseAll();
    } finally {
      cleanUp([stranger, holder, orphan, step]);
    }
  });

  it("takes a lease it wrote moments ago without reading it, and reads again one a renewal found taken", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance", "Date"] });
    try {
      const { db } = fixtureProject();
      const journal = Journal.open(db);
      const leases = new Leases(journal);
      expect(leases.acquire("task:a")).toEqual({ ok: true });
      // Taken by another runner behind this one's back (as a stale lease would be).
      const takeOver = journal.db.prepare(
        "UPDATE leases SET owner = 'other', pid = ?, heartbeat_at = ? WHERE scope = 'task:a'",
      );
      takeOver.run(process.pid, Date.now());
      expect(leases.acquire("task:a")).toEqual({ ok: true });
      // The renewal finds the lease gone; the next take reads the row and sees its holder.
      vi.advanceTimersByTime(5_000);
      expect(leases.acquire("task:a")).toMatchObject({ ok: false, holder: { owner: "other" } });
      leases.releaseAll();
    } finally {
      vi.useRealTimers();
    }
  });
});
