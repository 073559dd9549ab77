import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { stringify } from "yaml";
import { expect, it } from "vitest";
import { cli } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { TASK_WORKFLOW_FORMAT } from "./application-version.js";
import { describeWithWorkers } from "./test-support/worker-store.js";
import { ANSWERED_PASS, finished, untilTasks } from "./test-support/worker-processes.js";

// `loopgate db upgrade-paused`: a task paused for an answer under an older application version
// moves to this one under its own workflow id, and a worker of this version carries it on.

describeWithWorkers("db upgrade-paused on a PostgreSQL store", (store) => {
  const { workers } = store;

  it("moves an older version's paused task to this version, keeping its id: a new worker takes it to the same wait without running a step again, and the answer finishes it", async () => {
    const url = store.url();
    const db = store.db();
    const fixture = fixtureProject();
    const trace = join(fixture.dir, "steps.log");
    const taskFile = fixture.write(
      "paused.yaml",
      stringify({
        iteration_control: { max_iterations: 1 },
        steps: {
          generate: { command: `echo generate >> '${trace}'` },
          test: { command: `echo test >> '${trace}'; exit 1` },
        },
        tasks: [{ id: "p", prompt: "do p" }],
      }),
    );
    const submitted = cli(["run", taskFile, "--store", url, "--submit-only"], {}, fixture.dir);
    expect(submitted.stdout).toBe("submitted run 1: 1 task queued for loopgate worker\n");
    const id = "loopgate-run-1-task-p";
    const events = async () =>
      (
        await db.query<{ type: string }>(
          "SELECT type FROM loopgate.events WHERE run_id = 1 ORDER BY task_seq",
        )
      ).rows.map((row) => row.type);
    const old = await workers.start("upgrade-old");
    // Paused once its escalation is journaled.
    for (const deadline = Date.now() + 30_000; !(await events()).includes("decision-recorded");) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(50);
    }
    expect(await workers.stop(old)).toBe(0);
    // Handed back on the stop, and stamped as an older loopgate's.
    await db.query(
      "UPDATE dbos.workflow_status SET application_version = 'loopgate-0.0.1-w0' WHERE workflow_uuid = $1",
      [id],
    );
    const upgraded = cli(["db", "upgrade-paused", "--store", url], {}, fixture.dir);
    expect([upgraded.status, upgraded.stderr]).toEqual([0, ""]);
    // The built loopgate's version: the one its workers run.
    const version = new RegExp(
      `^upgraded 1 paused task to (loopgate-\\S+-w${TASK_WORKFLOW_FORMAT}): ${id} \\(was loopgate-0\\.0\\.1-w0\\)\n$`,
    ).exec(upgraded.stdout)?.[1];
    expect([version, upgraded.stdout]).toEqual([expect.any(String), upgraded.stdout]);
    const row = await db.query<{ status: string; application_version: string }>(
      "SELECT status, application_version FROM dbos.workflow_status WHERE workflow_uuid = $1",
      [id],
    );
    expect(row.rows).toEqual([{ status: "ENQUEUED", application_version: version }]);
    const again = cli(["db", "upgrade-paused", "--store", url], {}, fixture.dir);
    expect(again.stdout).toBe(`upgraded 0 paused tasks to ${version}\n`);
    await workers.start("upgrade-new");
    await untilTasks(db, 1, (rows) =>
      rows.some((task) => task.status === "PENDING" && task.executor_id === "upgrade-new"),
    );
    const answered = cli(["answer", "p", "--abort", "--run", "1", "--store", url], {}, fixture.dir);
    expect([answered.status, answered.stderr]).toEqual([0, ""]);
    await finished(db, 1, 1);
    expect(readFileSync(trace, "utf8").trim().split("\n")).toEqual(["generate", "test"]);
    expect(await events()).toEqual(ANSWERED_PASS);
  });
});
