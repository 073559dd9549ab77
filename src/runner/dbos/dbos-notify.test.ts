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
});
