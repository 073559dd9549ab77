import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailability } from "../../test-support/postgres.js";
import { cli, requireBuild, ROOT } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { migratedStore } from "../dbos/test-support/migrated-store.js";

// What only a PostgreSQL store does: a task a live worker holds is named by `status` and
// cancelled under that worker, its step in flight ending unheard; `doctor` checks the
// database's own things (workers, task workflows, holes in a task's story).

const availability = postgresAvailability();

describe.skipIf(availability.skip !== false)(
  `the commands on a PostgreSQL store a worker works on${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let db: pg.Client;
    let worker: ChildProcess | undefined;
    const fixture = fixtureProject();

    beforeAll(async () => {
      requireBuild();
      ({ url, db } = await migratedStore());
    });

    afterAll(async () => {
      worker?.kill("SIGKILL");
      await db?.end();
      rmSync(fixture.dir, { recursive: true, force: true });
    });

    it("names the worker holding a task, and cancels the task under it", async () => {
      const started = join(fixture.dir, "started");
      const release = join(fixture.dir, "release");
      const ended = join(fixture.dir, "ended");
      // The generate step runs until the test releases it (20 s at most).
      const taskFile = fixture.write(
        "slow.yaml",
        stringify({
          steps: {
            generate: {
              command: `touch '${started}'; i=0; while [ ! -e '${release}' ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; echo done; touch '${ended}'`,
            },
            test: { command: "echo ok" },
          },
          tasks: [{ id: "slow", prompt: "do slow" }],
        }),
      );
      const submitted = cli(["run", taskFile, "--store", url, "--submit-only"], {}, fixture.dir);
      expect(submitted.stdout).toBe("submitted run 1: 1 task queued for loopgate worker\n");
      worker = spawn(
        process.execPath,
        [join(ROOT, "bin", "loopgate.js"), "worker", "--store", url, "--executor", "w1"],
        { stdio: "ignore" },
      );
      for (let tries = 0; !existsSync(started) && tries < 400; tries += 1) await sleep(50);
      expect(existsSync(started)).toBe(true);

      // LOOPGATE_STORE names the store as --store does.
      const status = cli(["status", "--json"], { LOOPGATE_STORE: url }, fixture.dir);
      expect(status.status, status.stderr).toBe(0);
      const [run] = (JSON.parse(status.stdout) as { runs: Record<string, unknown>[] }).runs;
      expect(run).toMatchObject({
        run: 1,
        status: "unfinished",
        workers: [{ task_id: "slow", executor: "w1", status: "PENDING" }],
      });
      const text = cli(["status", "--store", url], {}, fixture.dir).stdout;
      expect(text).toContain("\nrun 1: held by workers: slow → w1\n");

      const cancelled = cli(
        ["cancel", "slow", "--reason", "not needed", "--by", "tester", "--store", url],
        {},
        fixture.dir,
      );
      expect(cancelled.stderr).toBe("");
      expect(cancelled.stdout).toBe(
        `cancelled in run 1: slow — not needed\nrun 1 is now cancelled (loopgate status --store ${url})\n`,
      );
      const workflow = await db.query<{ status: string }>(
        "SELECT status FROM dbos.workflow_status WHERE workflow_uuid = 'loopgate-run-1-task-slow'",
      );
      expect(workflow.rows[0]?.status).toBe("CANCELLED");
      // The step in flight ends after the cancellation: its end would take the place the
      // cancellation holds, and is not kept.
      writeFileSync(release, "");
      for (let tries = 0; !existsSync(ended) && tries < 400; tries += 1) await sleep(50);
      await sleep(1000);
      const events = await db.query<{ type: string }>(
        "SELECT type FROM loopgate.events WHERE run_id = 1 ORDER BY seq",
      );
      expect(events.rows.map((row) => row.type)).toEqual(["step-started", "task-cancelled"]);
      const after = cli(["status", "--store", url], {}, fixture.dir).stdout;
      expect(after).toMatch(/^1 +\S+ \S+ +cancelled +slow:cancelled /m);
      expect(after).not.toContain("held by workers");
    });

    it("doctor names the live worker and the task workflows, then the hole a lost event leaves", async () => {
      // Answers given up front need a process that works on the run: refused, nothing stored.
      const answers = fixture.write("answers.yaml", "answers:\n  slow:\n    - approve: true\n");
      const taskFile = join(fixture.dir, "slow.yaml");
      const submitted = cli(
        ["run", taskFile, "--store", url, "--submit-only", "--answers", answers],
        {},
        fixture.dir,
      );
      expect([submitted.status, submitted.stdout]).toEqual([2, ""]);
      expect(submitted.stderr).toMatch(
        /^error: run: --answers needs a process that works on the run, not --submit-only: .*\n$/,
      );
      const healthy = cli(["doctor", "--store", url], {}, fixture.dir);
      expect([healthy.status, healthy.stderr]).toEqual([0, ""]);
      expect(healthy.stdout).toMatch(/^server +PostgreSQL \d+/m);
      expect(healthy.stdout).toMatch(/^runs +1\nevents +2\n/m);
      expect(healthy.stdout).toMatch(/^workers +1 live \(w1\), 0 silent, 0 stopped$/m);
      expect(healthy.stdout).toMatch(/^tasks +1 CANCELLED$/m);
      expect(healthy.stdout).toMatch(/^state +healthy$/m);
      const json = JSON.parse(cli(["doctor", "--store", url, "--json"], {}, fixture.dir).stdout);
      expect(json).toMatchObject({
        runs: 1,
        events: 2,
        workflows: [{ status: "CANCELLED", tasks: 1 }],
        healthy: true,
      });

      // What only a git workspace has, said in one line (exit 2) as on SQLite without one.
      const diff = cli(["diff", "slow", "--store", url], {}, fixture.dir);
      expect([diff.status, diff.stdout]).toEqual([2, ""]);
      expect(diff.stderr).toMatch(/^error: diff: slow has no attempt yet/);
      const restore = cli(["restore", "slow", "1"], { LOOPGATE_STORE: url }, fixture.dir);
      expect([restore.status, restore.stdout]).toEqual([2, ""]);
      expect(restore.stderr.split("\n")).toHaveLength(2);

      await db.query("DELETE FROM loopgate.events WHERE run_id = 1 AND task_seq = 0");
      const damaged = cli(["doctor", "--store", url], {}, fixture.dir);
      expect(damaged.status).toBe(5);
      expect(damaged.stdout).toContain(
        'damaged   run 1 is damaged: task "slow" has 1 events, its last at place 1\n',
      );
      expect(damaged.stdout).toMatch(/^state +damaged: /m);
    });
  },
);
