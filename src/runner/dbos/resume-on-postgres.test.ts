import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { stringify } from "yaml";
import { expect, it } from "vitest";
import { cli } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { APPLICATION } from "./dbos-driver.js";
import { taskWorkflowId } from "./task-workflow.js";
import { describeWithWorkers } from "./test-support/worker-store.js";
import { untilFile, workRow } from "./test-support/worker-processes.js";
import { workWorkflowId } from "./work-workflow.js";

// `resume` on PostgreSQL taking back a cancel that was cut off between DBOS's cancellation and
// the journal's `task-cancelled`: the task and the work it waited for go back in motion at once.

describeWithWorkers("resume on a PostgreSQL store", (store) => {
  const { workers } = store;

  it("puts a cancelled task's cancelled work back itself: the task goes on within seconds, its step in flight run again and nothing else", async () => {
    const url = store.url();
    const db = store.db();
    const fixture = fixtureProject();
    const started = join(fixture.dir, "started");
    const release = join(fixture.dir, "release");
    const taskFile = fixture.write(
      "held.yaml",
      stringify({
        steps: {
          // The first generate waits for the test's release (20 s at most); later ones do not.
          generate: {
            command: `echo generate >> '${started}'; i=0; while [ ! -e '${release}' ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done`,
          },
          test: { command: "echo ok" },
        },
        tasks: [{ id: "held", prompt: "do held" }],
      }),
    );
    const submitted = cli(["run", taskFile, "--store", url, "--submit-only"], {}, fixture.dir);
    expect(submitted.stdout).toBe("submitted run 1: 1 task queued for loopgate worker\n");
    const worker = await workers.start("resume-w");
    await untilFile(() => existsSync(started), "the generate step's start");
    // A cancel cut off after DBOS's part: the task's workflow and its work are cancelled, and
    // no `task-cancelled` is journaled.
    const client = await DBOSClient.create({
      systemDatabaseUrl: url,
      applicationName: APPLICATION,
    });
    try {
      await client.cancelWorkflows([taskWorkflowId(1, "held")], { cancelChildren: true });
    } finally {
      await client.destroy();
    }
    const work = workWorkflowId(1, "held", 0, 0);
    expect(await workRow(db, work)).toMatchObject({ status: "CANCELLED" });
    writeFileSync(release, "");
    expect(await workers.stop(worker)).toBe(0);
    const from = Date.now();
    const resumed = cli(["resume", "--run", "1", "--store", url, "--quiet"], {}, fixture.dir);
    const took = Date.now() - from;
    expect([resumed.status, resumed.stderr]).toEqual([
      0,
      "loopgate: run 1: held is back on the task queue (its workflow was cancelled)\n",
    ]);
    // The task waited for its work's message a minute before it saw the cancel; now the work
    // is put back with it and tells it within a queue poll or two.
    expect(took).toBeLessThan(20_000);
    expect(await workRow(db, work)).toMatchObject({ status: "SUCCESS" });
    const story = await db.query<{ type: string; effect_id: string }>(
      "SELECT type, effect_id FROM loopgate.events WHERE run_id = 1 ORDER BY task_seq",
    );
    expect(story.rows.map((row) => `${row.type} ${row.effect_id}`)).toEqual([
      'step-started ["held",1,"generate",0]',
      'step-finished ["held",1,"generate",0]',
      'step-started ["held",1,"test",0]',
      'step-finished ["held",1,"test",0]',
      'decision-recorded ["held",1,"decision",0]',
    ]);
  });
});
