// A DBOS worker process for the tests that check what the DBOS driver relies on
// (dbos-behaviour.test.ts). Every step writes a row to probe_log before and after its work, so
// the test sees which steps ran, how often, where and when. Configured by the environment:
// PROBE_URL (the database), PROBE_EXECUTOR (its executor id), PROBE_LISTEN (the queues it takes
// work from, comma-separated, of "work" and "solo"). The test registers the queues' limits.
import { setTimeout as sleep } from "node:timers/promises";
import { DBOS } from "@dbos-inc/dbos-sdk";
import pg from "pg";

const url = process.env.PROBE_URL;
const executor = process.env.PROBE_EXECUTOR;
const pool = new pg.Pool({ connectionString: url, max: 4 });

const log = (workflow, step, phase) =>
  pool.query(
    "INSERT INTO probe_log (workflow, step, phase, executor, at) VALUES ($1, $2, $3, $4, clock_timestamp())",
    [workflow, step, phase, executor],
  );

/** A step that logs its start, works for `ms`, logs its end and says who ran it. */
const work = DBOS.registerStep(
  async (step, ms) => {
    await log(DBOS.workflowID, step, "start");
    await sleep(ms);
    await log(DBOS.workflowID, step, "end");
    return `${step} by ${executor}`;
  },
  { name: "work" },
);

DBOS.registerWorkflow(
  // `stepMs` is how long each step works; step two hangs on the executor `hangOn` names, for the
  // test that kills it there.
  async (stepMs, hangOn) => {
    const done = [];
    for (const step of ["one", "two", "three"]) {
      const hangs = step === "two" && hangOn === executor;
      done.push(await work(step, hangs ? 600_000 : (stepMs[step] ?? 0)));
    }
    return done;
  },
  { name: "steps" },
);

DBOS.registerWorkflow(
  async () => {
    await DBOS.setEvent("status", "waiting");
    const answer = await DBOS.recv("answer", 30);
    await DBOS.setEvent("status", "answered");
    return answer;
  },
  { name: "waiter" },
);

DBOS.setConfig({
  name: "loopgate-probe",
  systemDatabaseUrl: url,
  executorID: executor,
  applicationVersion: "probe-1",
  runMigrations: false,
  listenQueues: (process.env.PROBE_LISTEN ?? "work").split(","),
  logLevel: "warn",
});
await DBOS.launch();
for (const queue of ["work", "solo"])
  await DBOS.registerQueue(queue, { onConflict: "never_update" });
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void DBOS.shutdown().then(() => pool.end());
});
