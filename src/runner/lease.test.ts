import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it, vi } from "vitest";
import { Journal } from "./journal.js";
import { Leases } from "./lease.js";
import { fixtureProject } from "./test-support/fixture-project.js";

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
