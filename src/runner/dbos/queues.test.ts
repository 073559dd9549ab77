import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { stringify } from "yaml";
import { expect, it } from "vitest";
import { cli } from "../test-support/built-cli.js";
import { finished, untilFile } from "./test-support/worker-processes.js";
import { describeWithWorkers } from "./test-support/worker-store.js";

// A run's own `--concurrency` on PostgreSQL: a limit across every worker, from real worker
// processes, measured from the journal's step times.

/** A pass of a task's steps: from its first step's start to its last step's end, and who ran them. */
interface Pass {
  readonly from: number;
  readonly to: number;
  readonly executors: readonly string[];
}

/** The run's passes (one per task and iteration) as the journal has them. */
async function passesOf(db: pg.Client, runId: number): Promise<Pass[]> {
  const rows = await db.query<{
    task_id: string;
    iteration: number;
    from: Date;
    to: Date;
    executors: string[];
  }>(
    `SELECT task_id, (event->>'iteration')::int AS iteration,
            min(at) FILTER (WHERE type = 'step-started') AS from,
            max(at) FILTER (WHERE type = 'step-finished') AS to,
            array_agg(DISTINCT meta->>'executor') FILTER (WHERE type = 'step-started') AS executors
       FROM loopgate.events WHERE run_id = $1 AND type LIKE 'step-%'
      GROUP BY 1, 2`,
    [runId],
  );
  return rows.rows.map((row) => ({
    from: row.from.getTime(),
    to: row.to.getTime(),
    executors: row.executors,
  }));
}

/** The most passes running at one instant (a pass that ends as another starts is not both). */
function mostAtOnce(passes: readonly Pass[]): number {
  const ends = passes.flatMap((pass) => [
    { at: pass.from, change: 1 },
    { at: pass.to, change: -1 },
  ]);
  ends.sort((a, b) => a.at - b.at || a.change - b.change);
  let now = 0;
  let most = 0;
  for (const end of ends) {
    now += end.change;
    most = Math.max(most, now);
  }
  return most;
}

describeWithWorkers("a run's --concurrency across workers", (store) => {
  const { workers } = store;

  it("a run submitted with --concurrency 2 runs at most 2 passes at once across two workers of 4 steps each: a second worker takes none while the first holds 2, nor more than 2 once it has them all", async () => {
    const url = store.url();
    const db = store.db();
    const dir = mkdtempSync(join(tmpdir(), "loopgate-limit-"));
    const go = join(dir, "go");
    const log = join(dir, "started");
    const tasks = ["t1", "t2", "t3", "t4", "t5", "t6"];
    const document = {
      iteration_control: { max_iterations: 1 },
      steps: {
        // Every generate step waits for the test's go, then takes a moment.
        generate: {
          command: `echo "$LOOPGATE_TASK_ID" >> '${log}'; while [ ! -e '${go}' ]; do sleep 0.05; done; sleep 0.4`,
        },
        test: { command: "sleep 0.2" },
      },
      tasks: tasks.map((id) => ({ id, prompt: `do ${id}` })),
    };
    const taskFile = join(dir, "limited.yaml");
    writeFileSync(taskFile, stringify(document));
    const submitted = cli(
      ["run", taskFile, "--store", url, "--submit-only", "--concurrency", "2"],
      {},
      dir,
    );
    expect([submitted.status, submitted.stderr]).toEqual([0, ""]);
    const runId = Number(/submitted run (\d+)/.exec(submitted.stdout)?.[1]);
    const started = () =>
      existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [];
    const first = await workers.start("limit-a", ["--concurrency", "4"]);
    await untilFile(() => started().length === 2, "two passes on the first worker");
    // A live second worker with four places polls the queue for a few seconds: the run's two
    // places are taken, by the other worker.
    const second = await workers.start("limit-b", ["--concurrency", "4"]);
    await sleep(2_500);
    expect(started()).toHaveLength(2);
    // The first worker stops (its two steps finish, their passes go back to the queue), and the
    // second carries out all six.
    const stopped = workers.stop(first);
    await untilFile(() => first.stderr().includes("taking no new work"), "the first worker's stop");
    writeFileSync(go, "");
    expect(await stopped).toBe(0);
    await finished(db, runId, tasks.length);
    const passes = await passesOf(db, runId);
    expect(passes).toHaveLength(tasks.length);
    expect(mostAtOnce(passes)).toBe(2);
    expect(new Set(passes.flatMap((pass) => pass.executors))).toEqual(
      new Set(["limit-a", "limit-b"]),
    );
    expect(await workers.stop(second)).toBe(0);
  });
});
