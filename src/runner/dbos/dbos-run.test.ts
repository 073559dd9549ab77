import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import type pg from "pg";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliAsync, requireBuild } from "../test-support/built-cli.js";
import { fixtureProject } from "../test-support/fixture-project.js";
import { databaseUrl, postgresAvailability } from "../../test-support/postgres.js";
import { ANSWER_TOPIC, STATUS_EVENT, taskWorkflowId } from "./task-workflow.js";
import { migratedStore } from "./test-support/migrated-store.js";

// `loopgate run --store postgres://…` end to end: the built CLI against a real server.

const availability = postgresAvailability();

/** Each task's events as `type effectId`, in the order the task went through them. */
function storyByTask(events: readonly { type: string; task_id: string; effect_id: string }[]) {
  const stories = new Map<string, string[]>();
  for (const event of events) {
    stories.set(event.task_id, [
      ...(stories.get(event.task_id) ?? []),
      `${event.type} ${event.effect_id}`,
    ]);
  }
  return Object.fromEntries([...stories].sort(([a], [b]) => a.localeCompare(b)));
}

describe.skipIf(availability.skip !== false)(
  `loopgate run on a PostgreSQL store${availability.skip === false ? "" : ` (skipped: ${availability.skip})`}`,
  () => {
    let url = "";
    let db: pg.Client;
    const events = async (runId: number) =>
      (
        await db.query<{
          type: string;
          task_id: string;
          effect_id: string;
          event: { answer?: unknown };
        }>(
          "SELECT type, task_id, effect_id, event FROM loopgate.events WHERE run_id = $1 ORDER BY seq",
          [runId],
        )
      ).rows;

    beforeAll(async () => {
      requireBuild();
      ({ url, db } = await migratedStore());
    });

    afterAll(async () => {
      await db?.end();
    });

    it("runs a task file to the end as the SQLite journal does: the same table, the same story per task", async () => {
      const fixture = fixtureProject({ passFrom: 2, tasks: ["a", "quick"] });
      const onPostgres = cli(
        ["run", fixture.taskFile, "--store", url, "--concurrency", "2"],
        {},
        fixture.dir,
      );
      expect(onPostgres.stderr).toBe("");
      expect(onPostgres.status).toBe(0);
      const onSqlite = cli(
        ["run", fixture.taskFile, "--quiet", "--concurrency", "2"],
        {},
        fixture.dir,
      );
      expect(onSqlite.status).toBe(0);
      expect(onPostgres.stdout).toBe(onSqlite.stdout);
      expect(onPostgres.stdout).toMatch(/^a +proceeded +2 /m);
      const exported = cli(["export", "--jsonl"], {}, fixture.dir);
      const sqliteEvents = exported.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; task_id: string; effect_id: string });
      const stories = storyByTask(await events(1));
      expect(stories).toEqual(storyByTask(sqliteEvents));
      expect(stories.a).toHaveLength(14);
    });

    it("wakes a paused task with an answer another process sends while the run works on", async () => {
      const fixture = fixtureProject();
      const marker = join(fixture.dir, "answered");
      // "slow" keeps the run busy until the answer is in; "stuck" never passes its test and
      // escalates after its third attempt.
      const document = {
        iteration_control: { max_iterations: 3 },
        steps: {
          generate: {
            command: `if [ "$LOOPGATE_TASK_ID" = slow ]; then i=0; while [ ! -e '${marker}' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; fi; echo generated`,
          },
          test: { command: `[ "$LOOPGATE_TASK_ID" = slow ]` },
        },
        tasks: [
          { id: "stuck", prompt: "do stuck" },
          { id: "slow", prompt: "do slow" },
        ],
      };
      const taskFile = join(fixture.dir, "paused.yaml");
      writeFileSync(taskFile, stringify(document));
      const running = cliAsync(
        ["run", taskFile, "--store", url, "--concurrency", "2", "--json"],
        {},
        fixture.dir,
      );
      const client = await DBOSClient.create({
        systemDatabaseUrl: url,
        applicationName: "loopgate",
      });
      try {
        const runId = 2;
        const workflow = taskWorkflowId(runId, "stuck");
        const status = await client.getEvent(workflow, STATUS_EVENT, {
          timeoutSeconds: 60,
          pollingIntervalMs: 100,
        });
        expect(status).toMatchObject({ awaiting: expect.stringContaining('"stuck",3,"answer"') });
        await client.send(workflow, { kind: "abort", by: "a test" }, ANSWER_TOPIC);
        writeFileSync(marker, "");
        const ran = await running;
        expect(ran.stderr).toBe("");
        expect(ran.status).toBe(0);
        const summary = JSON.parse(ran.stdout) as {
          run: number;
          tasks: { task_id: string; outcome: string }[];
        };
        expect(summary.run).toBe(runId);
        expect(summary.tasks.map((task) => [task.task_id, task.outcome])).toEqual([
          ["stuck", "aborted"],
          ["slow", "proceeded"],
        ]);
        const answered = (await events(runId)).filter((event) => event.type === "answer-given");
        expect(answered.map((event) => event.event.answer)).toEqual([
          { kind: "abort", by: "a test" },
        ]);
      } finally {
        await client.destroy();
      }
    });

    it("refuses a database db migrate did not prepare, with one line, writing nothing", async () => {
      const bare = databaseUrl(url, `bare_${process.pid}`);
      await db.query(`CREATE DATABASE bare_${process.pid}`);
      const fixture = fixtureProject({ passFrom: 1 });
      const ran = cli(["run", fixture.taskFile], { LOOPGATE_STORE: bare }, fixture.dir);
      expect(ran.stderr).toBe(
        `error: ${bare} has no loopgate tables: run loopgate db migrate --store URL first\n`,
      );
      expect([ran.status, ran.stdout]).toEqual([2, ""]);
      expect(fixture.trace()).toEqual([]);
    });
  },
);
