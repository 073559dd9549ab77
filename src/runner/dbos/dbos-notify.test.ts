import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { stringify } from "yaml";
import { expect, it } from "vitest";
import { cli } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { ANSWER_TOPIC, taskWorkflowId } from "./task-workflow.js";
import { describeWithWorkers } from "./test-support/worker-store.js";
import { untilFile } from "./test-support/worker-processes.js";

// The task file's notifications on a PostgreSQL store: the built CLI against a real server.

describeWithWorkers("notifications on a PostgreSQL store", ({ url, workers }) => {
  it("a submitted run worked by two workers tells on_pause once, naming the store, and on_finish once", async () => {
    const fixture = fixtureProject();
    const told = join(fixture.dir, "told.log");
    const document = {
      iteration_control: { max_iterations: 1 },
      steps: { generate: { command: "echo generated" }, test: { command: "false" } },
      tasks: [{ id: "stuck", prompt: "do stuck" }],
      on_pause: { command: `cat "$LOOPGATE_NOTIFICATION_FILE" >> '${told}'` },
      on_finish: { command: `cat "$LOOPGATE_NOTIFICATION_FILE" >> '${told}'` },
    };
    const taskFile = join(fixture.dir, "notify.yaml");
    writeFileSync(taskFile, stringify(document));
    const submitted = cli(["run", taskFile, "--store", url(), "--submit-only"], {}, fixture.dir);
    expect([submitted.status, submitted.stderr]).toEqual([0, ""]);
    const runId = Number(/submitted run (\d+)/.exec(submitted.stdout)?.[1]);
    const [a, b] = await Promise.all([workers.start("notify-a"), workers.start("notify-b")]);
    const client = await DBOSClient.create({
      systemDatabaseUrl: url(),
      applicationName: "loopgate",
    });
    const lines = () => (existsSync(told) ? readFileSync(told, "utf8") : "");
    try {
      await untilFile(() => lines().includes('"pause"'), "the pause notification");
      await client.send(
        taskWorkflowId(runId, "stuck"),
        { kind: "abort", by: "a test" },
        ANSWER_TOPIC,
      );
      await untilFile(() => lines().includes('"finish"'), "the finish notification");
      await Promise.all([workers.stop(a), workers.stop(b)]);
      const notifications = lines()
        .split(/\n(?=\{)/)
        .map(
          (text) => JSON.parse(text) as { event: string; answer_with?: string; journal: string },
        );
      expect(notifications.map((n) => n.event)).toEqual(["pause", "finish"]);
      expect(notifications[0]?.answer_with).toContain("--store ");
      const password = new URL(url()).password;
      if (password !== "") expect(lines()).not.toContain(password);
    } finally {
      await client.destroy();
    }
  });
  it("run and resume in one process wait for their notifications: on_pause is out when run exits 3, on_finish when resume exits 0, slow receivers too", () => {
    const fixture = fixtureProject();
    // Slower than the 3 s a stopping worker gives workflows in flight: the notification must be
    // waited for, not cut off by the stop.
    const keep =
      'sleep 4; cp "$LOOPGATE_NOTIFICATION_FILE" "got-$LOOPGATE_NOTIFICATION_EVENT.json"';
    const document = {
      iteration_control: { max_iterations: 1 },
      steps: {
        generate: { command: "echo generated" },
        test: { command: '[ "$LOOPGATE_ITERATION" -ge 2 ]' },
      },
      tasks: [{ id: "slow", prompt: "do slow" }],
      on_pause: { command: keep },
      on_finish: { command: keep },
    };
    const taskFile = join(fixture.dir, "slow-notify.yaml");
    writeFileSync(taskFile, stringify(document));
    const got = (event: string) => join(fixture.dir, `got-${event}.json`);
    const store = ["--store", url()];
    const first = cli(["run", taskFile, ...store, "--quiet"], {}, fixture.dir);
    expect(first.status, first.stderr).toBe(3);
    expect(existsSync(got("pause")), first.stderr).toBe(true);
    const runId = (JSON.parse(readFileSync(got("pause"), "utf8")) as { run: number }).run;
    const answered = cli(["answer", "slow", "--approve", ...store], {}, fixture.dir);
    expect(answered.status, answered.stderr).toBe(0);
    const resumed = cli(["resume", "--run", String(runId), ...store, "--quiet"], {}, fixture.dir);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(existsSync(got("finish")), resumed.stderr).toBe(true);
    expect(JSON.parse(readFileSync(got("finish"), "utf8"))).toMatchObject({
      event: "finish",
      run: runId,
      status: "finished",
    });
  });
});
